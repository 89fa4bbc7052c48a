/**
 * A connection's OAuth client credentials, read just before a token request or a revocation is built: the only
 * reads that decrypt a client secret. Connection records carry none, so a lookup, a list or a tool call on a valid
 * access token never opens one, and a secret that cannot be decrypted fails only what needs it, naming its
 * connection (the store's `invalid_request`).
 */
import { ConnectorError } from '../errors.js';
import type { ClientCredentials, ConnectionRecord, Store } from '../store/types.js';

export async function clientCredentials(
  store: Pick<Store, 'getClientCredentials'>,
  connection: Pick<ConnectionRecord, 'environmentId' | 'id' | 'name'>,
): Promise<ClientCredentials> {
  const credentials = await store.getClientCredentials(connection.environmentId, connection.id);
  if (credentials === null) throw new ConnectorError('connection_not_found', `The connection ${JSON.stringify(connection.name)} no longer exists.`);
  return credentials;
}
