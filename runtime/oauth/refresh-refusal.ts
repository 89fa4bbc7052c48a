/**
 * A token refresh that the provider's token endpoint refused, other than for the user's grant (`invalid_grant`) or its
 * rate limit: the message its `upstream_error` says it with, and what that message tells a reader of the execution
 * history later, which keeps the message and the status but not the OAuth error code (`details.error`).
 *
 * A refused client (`invalid_client`, `unauthorized_client`: the connection's client id or secret) is neither the
 * request's nor the provider's failure but the application's OAuth client's, which the operator fixes on the
 * connection: the error catalogue puts it on the authorization side (`refusedClientSide`, runtime/errors.ts).
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 */

/** The OAuth error codes by which a token endpoint refuses the application's client rather than the user's grant. */
const CLIENT_REFUSALS: ReadonlySet<string> = new Set(['invalid_client', 'unauthorized_client']);

export function isClientRefusal(oauthError: string): boolean {
  return CLIENT_REFUSALS.has(oauthError);
}

/** The start of a refused refresh's message: `The token refresh failed (401 invalid_client).` */
export function refreshFailedText(status: number, oauthError: string): string {
  return `The token refresh failed (${status} ${oauthError}).`;
}

const REFRESH_FAILED = /^The token refresh failed \(\d{3} ([A-Za-z0-9_.-]+)\)\./;

/**
 * Whether a recorded error message (an execution's `error_message`) is that of a token refresh that refused the
 * application's OAuth client: it begins as {@link refreshFailedText} wrote it, with one of the client refusals.
 */
export function refusedClientMessage(message: string | null | undefined): boolean {
  const m = REFRESH_FAILED.exec(message ?? '');
  return m !== null && isClientRefusal(m[1]!);
}
