/**
 * The client's own access token: fetched with client credentials on first use, reused until shortly before it
 * expires, and fetched once for any number of concurrent callers.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.4
 */
import { readServiceResponse, serviceErrorFrom } from './errors.js';

/** Renew this long before the token's stated expiry, so a request never leaves with a token about to lapse. */
const RENEW_EARLY_MS = 60_000;

export interface TokenSourceOptions {
  envUrl: string;
  clientId: string;
  clientSecret: string;
  fetch: typeof fetch;
  now: () => number;
}

export class TokenSource {
  private current: { token: string; renewAt: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(private readonly options: TokenSourceOptions) {}

  /** A valid token, fetching one when there is none or it is about to expire. */
  async get(): Promise<string> {
    if (this.current && this.options.now() < this.current.renewAt) return this.current.token;
    this.pending ??= this.fetchToken().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** Drops the cached token (after a 401), so the next {@link get} fetches a new one. */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = undefined;
  }

  private async fetchToken(): Promise<string> {
    const { envUrl, clientId, clientSecret } = this.options;
    const response = await this.options.fetch(`${envUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).toString(),
    });
    const body = await readServiceResponse(response);
    const { access_token: token, expires_in: expiresIn } = (typeof body === 'object' && body !== null ? body : {}) as { access_token?: unknown; expires_in?: unknown };
    if (typeof token !== 'string') throw serviceErrorFrom(502, response.headers, null);
    const lifetimeMs = (typeof expiresIn === 'number' ? expiresIn : 300) * 1000;
    this.current = { token, renewAt: this.options.now() + Math.max(lifetimeMs - RENEW_EARLY_MS, lifetimeMs / 2) };
    return token;
  }
}
