/**
 * Drives a sandbox consent page the way a browser would, for tests and the demo: GET the authorize URL (the page),
 * then POST the same URL with the form fields. Returns the redirect the provider answered with.
 */
export interface ConsentOptions {
  /** Sandbox user (an e-mail address); a new one gets sample data. Default `alice@example.com`. */
  user?: string;
  decision?: 'allow' | 'deny';
  /** Google only: scopes the user unticks. */
  withhold?: string[];
}

export interface ConsentResult {
  /** The `Location` the provider redirected to (the client's redirect URI with `code`/`state` or `error`). */
  location: string;
  params: URLSearchParams;
}

export async function consent(authorizeUrl: string, options: ConsentOptions = {}): Promise<ConsentResult> {
  const page = await fetch(authorizeUrl, { redirect: 'manual' });
  // Errors the provider reports to the client (e.g. a missing PKCE challenge) come back as a redirect already.
  if (page.status === 302) return result(page);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${html.replace(/<[^>]+>/g, ' ').trim()}`);
  const form = new URLSearchParams({ user: options.user ?? 'alice@example.com', decision: options.decision ?? 'allow' });
  for (const s of options.withhold ?? []) form.append('withhold', s);
  const answer = await fetch(authorizeUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  if (answer.status !== 302) throw new Error(`consent form answered ${answer.status}: ${await answer.text()}`);
  return result(answer);
}

function result(res: Response): ConsentResult {
  const location = res.headers.get('location') ?? '';
  return { location, params: new URL(location).searchParams };
}
