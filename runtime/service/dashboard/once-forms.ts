/**
 * One-time forms: a dashboard form whose send makes something (a webhook endpoint, a secret rotation, an authorization
 * link) and whose answer is a page, not a redirect, because that page shows what was made once (a secret) and so
 * cannot be a URL to come back to. Reloading that page, or Back and Send again, sends the same form again. Each such
 * form carries a random token (the `_once` field, a new one on every page); its first send claims it in the store,
 * bound to the session, and records what it made; a send of the same form again gets that record back instead of
 * doing the work twice, and the route answers a page saying it was already done (with what it made, never a secret).
 * The claims live in the store (`dashboard_form_sends`), so a re-send that reaches another instance finds them too.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ConnectorError } from '../../errors.js';
import type { Store } from '../../store/types.js';
import type { SessionClaims } from '../app-auth.js';

/** The hidden field that carries the form's token. */
export const ONCE_FIELD = '_once';
const TOKEN_PATTERN = /^[\w-]{32}$/;

/** A new token for the one-time forms of a page: 192 random bits. */
export function newFormToken(): string {
  return randomBytes(24).toString('base64url');
}

/** What an earlier send of the same form made (`result` null when it has not finished, or was interrupted). */
export interface EarlierSend {
  result: Record<string, unknown> | null;
  /** When it was sent. */
  at: string;
}

export type OnceOutcome<R> = { made: R } | { earlier: EarlierSend };

export class OnceForms {
  constructor(private readonly store: Pick<Store, 'claimFormSend' | 'finishFormSend' | 'releaseFormSend'>) {}

  /**
   * Does `act` on the form's first send and records `record(made)` (what a later page may show again: no secret);
   * on a send of the same form again, answers the earlier send instead. `subject` is what the form acts on (an
   * endpoint, a connection and identifier): a page's token is shared by its forms, and each form on it (a link for
   * each of several accounts) is a send of its own. It goes into the send's id only, never into the store as it is. A send whose `act` throws gives its claim
   * back, so the same form sent again tries again. A form without a token (a page from before tokens) is refused as
   * an expired one is.
   */
  async send<R>(session: SessionClaims, body: unknown, action: string, subject: string, act: () => Promise<R>, record: (made: R) => Record<string, unknown>): Promise<OnceOutcome<R>> {
    const token = body && typeof body === 'object' ? (body as Record<string, unknown>)[ONCE_FIELD] : undefined;
    if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) {
      throw new ConnectorError('unauthorized', 'The form expired or did not come from this dashboard; reload the page and try again');
    }
    // The session, the action and its subject are part of the id: a token means nothing in another session or form.
    const id = createHash('sha256').update(JSON.stringify([session.id, action, subject, token])).digest('hex');
    const earlier = await this.store.claimFormSend({ id, environmentId: session.environmentId, action, expiresAt: session.expiresAt.toISOString() });
    if (earlier !== null) return { earlier: { result: earlier.result, at: earlier.createdAt } };
    let made: R;
    try {
      made = await act();
    } catch (error) {
      // The send's own error is what the page says; a release that fails leaves the claim to expire with the session.
      await this.store.releaseFormSend(id).catch(() => undefined);
      throw error;
    }
    await this.store.finishFormSend(id, record(made));
    return { made };
  }
}
