/**
 * The error for an account that cannot be used until its user authorizes again.
 *
 * Why 409 and not 401 (errors.ts sets `reauthorization_required` to 409): the service answers 401 for the
 * *application's* credentials, and an application that sees 401 would reasonably drop its own service token and
 * retry. Here the application is fine; the connected account is in a state (EXPIRED, DISCONNECTED, PENDING_AUTH)
 * that conflicts with the request, and only the end user, through a new authorization link, can resolve it.
 */
import { ConnectorError } from '../errors.js';
import type { AccountRecord } from '../store/types.js';

export function reauthorizationRequired(account: Pick<AccountRecord, 'id' | 'identifier' | 'status' | 'statusReason'>, connectionName: string, why?: string): ConnectorError {
  const reason = why ?? account.statusReason ?? account.status.toLowerCase();
  const whose = `The account of ${JSON.stringify(account.identifier)} on connection ${JSON.stringify(connectionName)}`;
  // A PENDING_AUTH account was never authorized: "again" would send the reader looking for a grant that was lost.
  const message =
    account.status === 'PENDING_AUTH'
      ? `${whose} is not authorized yet (${reason}): the user has not finished the authorization link; send it to them, or create a new one.`
      : `${whose} must be authorized again (${reason}); create a new authorization link.`;
  return new ConnectorError('reauthorization_required', message, { details: { connected_account_id: account.id, status: account.status, reason } });
}
