/**
 * The account events the service emits, each written to the outbox in the same transaction as the account change it
 * reports (see `runtime/store/sql-events.ts`) and delivered to webhook endpoints (see `dispatcher.ts`).
 *
 * @see ../../docs/webhooks.md
 */
export const ACCOUNT_EVENT_TYPES = [
  'account.connected',
  'account.reauthorized',
  'account.expired',
  'account.disconnected',
  'account.authorization_failed',
  'account.scope_insufficient',
] as const;

export type AccountEventType = (typeof ACCOUNT_EVENT_TYPES)[number];

export function isAccountEventType(value: unknown): value is AccountEventType {
  return typeof value === 'string' && (ACCOUNT_EVENT_TYPES as readonly string[]).includes(value);
}

/**
 * An event a state-changing store method appends with its change. The store fills in the account's facts (ids,
 * identifier, connection, status and status reason as written); `details` adds what only the caller knows (the
 * refresh error, the tool that was refused). Never a token.
 */
export interface AccountEventDraft {
  type: AccountEventType;
  details?: Record<string, string | number | boolean | null | string[]>;
  /**
   * At most one event per key is ever written (later ones are dropped): `account.scope_insufficient` is keyed by the
   * account's token version, so a loop of refused calls reports once per authorization, not once per call.
   */
  dedupeKey?: string;
}
