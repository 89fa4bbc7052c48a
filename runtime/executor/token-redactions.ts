/**
 * The redactions of a token set's secrets (`http/normalize.ts`'s {@link Redaction}: every form an echoing upstream
 * could give them, as one pattern), built once per token set instead of once per call: a warm call scrubs its
 * answer with the redaction the previous calls on the same cached account built.
 *
 * Keyed weakly by the token set object, so this keeps no token longer than the token set is kept: the lookup cache
 * holds an account's set while it caches the account (one second, 10,000 entries, dropped on invalidation:
 * `lookup-cache.ts`), a call in flight holds its own, and once neither does, the set and its redactions go
 * together. Nothing is keyed by a token's value. A token set is never changed in place (a refresh makes a new one).
 */
import { Redaction } from '../http/normalize.js';
import type { TokenSet } from '../store/types.js';

export class TokenRedactions {
  private readonly access = new WeakMap<TokenSet, Redaction>();
  private readonly all = new WeakMap<TokenSet, Redaction>();

  /** The access token's: what a tool call's answer, and any upstream error body, is scrubbed of. */
  accessToken(tokens: TokenSet): Redaction {
    let found = this.access.get(tokens);
    if (found === undefined) {
      found = new Redaction([tokens.accessToken]);
      this.access.set(tokens, found);
    }
    return found;
  }

  /** The access and the refresh token's: what a proxy answer is scrubbed of. */
  accessAndRefreshTokens(tokens: TokenSet): Redaction {
    let found = this.all.get(tokens);
    if (found === undefined) {
      found = new Redaction(tokens.refreshToken === null ? [tokens.accessToken] : [tokens.accessToken, tokens.refreshToken]);
      this.all.set(tokens, found);
    }
    return found;
  }
}
