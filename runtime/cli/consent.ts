/**
 * Drives an authorization link through the sandbox's consent form without a browser: open the link (keeping the
 * browser-binding cookie), post "allow" on the provider's consent form, follow the redirect to the callback.
 * Used by the demo and by tests; only meaningful against the sandbox, whose consent page is a plain form.
 */

export interface ConsentResult {
  /** Status of the service's callback response (200 success page, or a redirect to the app's URL). */
  status: number;
  /** The callback page's HTML (or empty for a redirect). */
  page: string;
  /** Each hop, for showing progress. */
  steps: string[];
}

function cookieFrom(setCookie: string[]): string {
  return setCookie.map((c) => c.split(';')[0]).join('; ');
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
  const opened = await fetch(link, { redirect: 'manual' });
  const authorizeUrl = await expectRedirect(opened, 'opening the authorization link');
  const cookie = cookieFrom(opened.headers.getSetCookie());
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
