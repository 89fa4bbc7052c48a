/**
 * Binds an authorization link to the first browser that opens it.
 *
 * A link is a bearer capability for one identifier, valid for `LINK_TTL_MS` (`flow.ts`): without a binding, anyone who
 * sees a leaked copy (a forwarded email, a proxy log, a shared screen) could open it within the hour and attach
 * their own provider account to the victim's identifier. So the first open stores the SHA-256 of a random
 * browser-binding value on the link (kept by that browser in an HttpOnly cookie); a later open must present the
 * same value. The same browser may open the link again (the back button, a second try after closing the consent
 * page); any other browser gets `authorization_failed`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9700#section-4.7 (OAuth 2.0 Security BCP: CSRF and session binding)
 */
import { ConnectorError } from '../errors.js';
import type { AuthLinkRecord, Store } from '../store/types.js';
import { randomToken, sameDigest, sha256Hex } from './random.js';

/** What {@link randomToken} produces: 32 bytes in base64url. Anything else in the cookie is ignored, not trusted. */
const BINDING_VALUE = /^[A-Za-z0-9_-]{43}$/;

/** Throws `authorization_failed` when the link is bound to another browser than the one holding `presented`. */
export function checkLinkBinding(link: Pick<AuthLinkRecord, 'browserHash'>, presented: string | undefined): void {
  if (link.browserHash === undefined) return;
  const value = typeof presented === 'string' && BINDING_VALUE.test(presented) ? presented : undefined;
  if (value === undefined || !sameDigest(link.browserHash, sha256Hex(value))) throw boundElsewhere();
}

function boundElsewhere(): ConnectorError {
  return new ConnectorError(
    'authorization_failed',
    'This authorization link was already opened in another browser. Open it in that browser, or ask the application for a new link.',
  );
}

/**
 * Binds the link to the browser holding `presented` (or to a fresh value when the browser has none) and returns the
 * value the browser must keep. An unknown or expired link is left to the opener to report. Throws
 * `authorization_failed` when the link is already bound to another browser.
 */
export async function bindAuthorizationLink(store: Pick<Store, 'bindAuthLink'>, linkToken: string, presented: string | undefined): Promise<string> {
  const value = typeof presented === 'string' && BINDING_VALUE.test(presented) ? presented : randomToken();
  if (typeof linkToken !== 'string' || linkToken === '') return value;
  const hash = sha256Hex(value);
  const link = await store.bindAuthLink(sha256Hex(linkToken), hash);
  if (link !== null && (link.browserHash === undefined || !sameDigest(link.browserHash, hash))) throw boundElsewhere();
  return value;
}
