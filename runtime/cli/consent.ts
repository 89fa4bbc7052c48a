/**
 * Drives an authorization link through the sandbox's consent form without a browser: open the link's Continue page,
 * press Continue (keeping the cookies), post "allow" on the provider's consent form, follow the redirect to the
 * callback. Used by the demo and by tests; only meaningful against the sandbox, whose consent page is a plain form.
 */

export interface ConsentResult {
  /** Status of the service's callback response (200 success page, or a redirect to the app's URL). */
  status: number;
  /** The callback page's HTML (or empty for a redirect). */
  page: string;
  /** Each hop, for showing progress. */
  steps: string[];
}

/** The cookies a response set, as a Cookie header (added to `before`, a later value replacing an earlier one). */
export function cookieFrom(setCookie: string[], before = ''): string {
  const jar = new Map(before.split('; ').filter(Boolean).map((c) => [c.slice(0, c.indexOf('=')), c] as const));
  for (const c of setCookie) {
    const pair = c.split(';')[0] ?? '';
    const name = pair.slice(0, pair.indexOf('='));
    if (/max-age=0|expires=thu, 01 jan 1970/i.test(c)) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join('; ');
}

/**
 * Opens an authorization link as a browser does: GET its Continue page (which binds nothing), then submit the
 * page's form, which binds the link and redirects to the provider. Returns the provider URL and the cookies
 * (`cookie`, a Cookie header) the browser holds afterwards.
 */
export async function continueLink(link: string, cookie = ''): Promise<{ authorizeUrl: string; cookie: string }> {
  const page = await fetch(link, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`opening the authorization link: HTTP ${page.status}: ${html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').slice(0, 300)}`);
  const nonce = /name="continue" value="([^"]+)"/.exec(html)?.[1];
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!nonce || !action) throw new Error('opening the authorization link: the page has no Continue form');
  let jar = cookieFrom(page.headers.getSetCookie(), cookie);
  const continued = await fetch(new URL(action.replace(/&amp;/g, '&'), link), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar },
    body: new URLSearchParams({ continue: nonce }).toString(),
  });
  const authorizeUrl = await expectRedirect(continued, 'continuing the authorization link');
  jar = cookieFrom(continued.headers.getSetCookie(), jar);
  return { authorizeUrl, cookie: jar };
}

async function expectRedirect(response: Response, what: string): Promise<string> {
  const location = response.headers.get('location');
  if (response.status < 300 || response.status > 399 || !location) {
    const text = await response.text();
    throw new Error(`${what}: expected a redirect, got HTTP ${response.status}: ${text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').slice(0, 300)}`);
  }
  return location;
}

/** Authorizes `user` at the sandbox for the link's connection. `decision: 'deny'` exercises the refusal path. */
export async function consentThroughSandbox(link: string, options: { user?: string; decision?: 'allow' | 'deny' } = {}): Promise<ConsentResult> {
  const steps: string[] = [];
  const { authorizeUrl, cookie } = await continueLink(link);
  steps.push(`link opened; redirected to ${new URL(authorizeUrl).origin}${new URL(authorizeUrl).pathname}`);

  const consentPage = await fetch(authorizeUrl, { redirect: 'manual' });
  if (consentPage.status !== 200) throw new Error(`the provider's consent page answered HTTP ${consentPage.status}`);
  await consentPage.text();
  const form = new URLSearchParams({ decision: options.decision ?? 'allow' });
  if (options.user) form.set('user', options.user);
  else form.set('user', 'alice@example.com');
  const consented = await fetch(authorizeUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  const callbackUrl = await expectRedirect(consented, 'submitting the consent form');
  steps.push(`consent ${options.decision ?? 'allow'} as ${form.get('user')}; provider redirected to the callback`);

  const callback = await fetch(callbackUrl, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  const page = callback.status >= 300 && callback.status < 400 ? '' : await callback.text();
  steps.push(`callback answered HTTP ${callback.status}`);
  return { status: callback.status, page, steps };
}
