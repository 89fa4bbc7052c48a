/**
 * PKCE with S256 only (`plain` gives no protection against an intercepted authorization request).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.1
 */
import { createHash, randomBytes } from 'node:crypto';

export interface Pkce {
  verifier: string;
  challenge: string;
  method: 'S256';
}

/** A 43-character verifier (32 random bytes, base64url) and its S256 challenge. */
export function createPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256(verifier), method: 'S256' };
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}
