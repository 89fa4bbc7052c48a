/** Finds the connection and connected account a tool call or proxy request acts through. */
import { ConnectorError } from '../errors.js';
import { checkTextInput } from '../validation/text-input.js';
import type { AuthTarget } from '../oauth/refresh.js';
import type { AccountRecord, ConnectionRecord } from '../store/types.js';
import type { ConnectorName } from '../types.js';
import { connectionNameHint } from './connection-hint.js';
import type { RuntimeContext } from './context.js';

/** `details.violations` naming the request field a lookup failed on, as the tools' own violations do. */
function pointAt(pointer: '/connection_name' | '/identifier', message: string): { details: { violations: { pointer: string; message: string; keyword: string }[] } } {
  return { details: { violations: [{ pointer, message, keyword: 'not_found' }] } };
}

/** The refusal of a connection name, with the name meant or the environment's names (read only on this path). */
async function notFound(ctx: RuntimeContext, environmentId: string, name: string): Promise<ConnectorError> {
  const names = (await ctx.cache.connectionList(environmentId, () => ctx.store.listConnections(environmentId))).map((c) => c.name);
  const hint = connectionNameHint(name, names);
  return new ConnectorError('connection_not_found', `No connection named ${JSON.stringify(name)} in this environment.${hint}`, {
    ...pointAt('/connection_name', `connection_name ${JSON.stringify(name)} names no connection in this environment.${hint}`),
  });
}

/**
 * The connection a call acts through: the one named, or with `connectionName` omitted (tool calls only), the
 * connection of `connector` on which the identifier has exactly one account, not DISCONNECTED; failing that, its one
 * DISCONNECTED account's, so that the caller hears `reauthorization_required` exactly as it would have with the
 * connection named.
 */
async function resolveConnection(
  ctx: RuntimeContext,
  environmentId: string,
  connectionName: string | undefined,
  identifier: unknown,
  connector: ConnectorName | undefined,
): Promise<{ connection: ConnectionRecord; identifier: string }> {
  if (typeof identifier !== 'string' || identifier === '') throw new ConnectorError('invalid_request', 'identifier must be a non-empty string.');
  checkTextInput(identifier, '/identifier', 'identifier');
  checkTextInput(connectionName, '/connection_name', 'connection_name');
  if (connectionName !== undefined && connectionName !== null) {
    if (typeof connectionName !== 'string' || connectionName === '') throw new ConnectorError('invalid_request', 'connection_name must be a non-empty string.');
    const connection =
      ctx.cache.connection(environmentId, connectionName) ??
      (await ctx.cache.loadConnection(environmentId, connectionName, () => ctx.store.getConnectionByName(environmentId, connectionName)));
    if (connection === null) throw await notFound(ctx, environmentId, connectionName);
    if (connector !== undefined && connection.connector !== connector) {
      throw new ConnectorError('invalid_request', `Connection ${JSON.stringify(connectionName)} is a ${connection.connector} connection; this tool needs a ${connector} connection.`);
    }
    return { connection, identifier };
  }
  if (connector === undefined) throw new ConnectorError('invalid_request', 'connection_name is required.');
  return { connection: ctx.cache.soleConnection(environmentId, connector, identifier) ?? (await soleConnection(ctx, environmentId, identifier, connector)), identifier };
}

/**
 * For the history of a tool call refused for its input, before any lookup: notes the connection the call would have
 * acted through, found by the same rule as a valid call's ({@link resolveConnection}, through the same caches), so
 * that the history's connection filter finds the refusal. When there is none (a name no connection has, an
 * identifier with no account on the tool's connections, or accounts on several) nothing is noted and the record
 * keeps the name the request gave, if any; the lookup's own failure never changes the caller's answer.
 */
export async function noteIntendedConnection(
  ctx: RuntimeContext,
  environmentId: string,
  connectionName: string | undefined,
  identifier: unknown,
  connector: ConnectorName,
): Promise<void> {
  if (ctx.execution === undefined) return;
  try {
    ctx.execution.noteTarget((await resolveConnection(ctx, environmentId, connectionName, identifier, connector)).connection);
  } catch {
    // No connection this call would have used (or the store could not say): the refusal stands as it is.
  }
}

/**
 * Resolves (connection, account): the connection by {@link resolveConnection}, noted at once for the execution
 * history (so a call that fails after this, for want of an account, say, is recorded with it), then the account.
 */
export async function resolveTarget(
  ctx: RuntimeContext,
  environmentId: string,
  connectionName: string | undefined,
  identifierInput: unknown,
  connector?: ConnectorName,
): Promise<AuthTarget> {
  const { connection, identifier } = await resolveConnection(ctx, environmentId, connectionName, identifierInput, connector);
  ctx.execution?.noteTarget(connection);
  let account = ctx.cache.account(environmentId, connection.id, identifier) ?? null;
  // A token due for refresh is always re-read: the refresh must start from the database, not from the cache.
  if (account === null || ctx.refresher.needsRefresh(account.tokens!)) {
    const connectionId = connection.id;
    account = await ctx.cache.loadAccount(environmentId, connectionId, identifier, () => ctx.store.findAccount(environmentId, connectionId, identifier));
  }
  if (account !== null && connectionName == null && account.status === 'ACTIVE' && ctx.cache.soleConnection(environmentId, connector as ConnectorName, identifier) !== connection) {
    ctx.cache.setSoleConnection(identifier, connection);
  }
  if (account === null) {
    throw new ConnectorError('account_not_found', `No connected account for ${JSON.stringify(identifier)} on connection ${JSON.stringify(connection.name)}; create an authorization link first.`, {
      ...pointAt('/identifier', `identifier ${JSON.stringify(identifier)} has no connected account on connection ${JSON.stringify(connection.name)}`),
    });
  }
  return { account, connection, connector: ctx.connectorFor(connection.connector) };
}

/**
 * The implicit choice reads what it needs and nothing more: the environment's connections (cached like the other
 * lookups; records carry no client secret, so none is decrypted), then the identifier's account on each connection of
 * `connector` (usually one), each through the lookup cache's account read (the per-call lookup that opens the access
 * token alone; concurrent misses share it, and an ACTIVE account is cached for the caller). Accounts on other
 * connectors are not read.
 */
async function soleConnection(ctx: RuntimeContext, environmentId: string, identifier: string, connector: ConnectorName): Promise<ConnectionRecord> {
  const all = await ctx.cache.connectionList(environmentId, () => ctx.store.listConnections(environmentId));
  const connections = all.filter((c) => c.connector === connector);
  const found = await Promise.all(
    connections.map((c) => ctx.cache.loadAccount(environmentId, c.id, identifier, () => ctx.store.findAccount(environmentId, c.id, identifier))),
  );
  const held = found.filter((a): a is AccountRecord => a !== null);
  const live = held.filter((a) => a.status !== 'DISCONNECTED');
  // Only disconnected accounts: one of them is what the caller meant, and it needs a new authorization. With
  // several there is no telling which, and none works, so the answer stays "no connected account".
  const accounts = live.length === 0 && held.length === 1 ? held : live;
  if (accounts.length === 0) {
    throw new ConnectorError('account_not_found', `No connected account for ${JSON.stringify(identifier)} on any ${connector} connection; create an authorization link first.`, {
      ...pointAt('/identifier', `identifier ${JSON.stringify(identifier)} has no connected account on any ${connector} connection`),
    });
  }
  if (accounts.length > 1) {
    const names = connections.filter((c) => accounts.some((a) => a.connectionId === c.id)).map((c) => c.name).sort();
    throw new ConnectorError('ambiguous_connection', `${JSON.stringify(identifier)} has accounts on several ${connector} connections (${names.join(', ')}); pass connection_name.`, {
      details: { connections: names },
    });
  }
  const account = accounts[0] as AccountRecord;
  return connections.find((c) => c.id === account.connectionId) as ConnectionRecord;
}
