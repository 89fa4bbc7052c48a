/** Authorization links and connected accounts. Views never carry a token. */
import type { FastifyInstance } from 'fastify';
import type { AuthorizationLinkInput } from '../../api.js';
import type { AccountStatus } from '../../store/types.js';
import { apiSchemas } from './schemas.js';

export function registerAccountRoutes(api: FastifyInstance): void {
  const { accountsQuery, accountParams, magicLinkBody } = apiSchemas();
  api.post<{ Body: AuthorizationLinkInput }>('/connected_accounts/magic_link', { schema: { body: magicLinkBody } }, async (request) =>
    request.env.authorizationLink(request.body),
  );

  api.get<{ Querystring: { identifier?: string; connection_name?: string; status?: AccountStatus } }>(
    '/connected_accounts',
    { schema: { querystring: accountsQuery } },
    async (request) => ({ connected_accounts: await request.env.listAccounts(request.query) }),
  );

  api.get<{ Params: { id: string } }>('/connected_accounts/:id', { schema: { params: accountParams } }, async (request) =>
    request.env.getAccount(request.params.id),
  );

  api.delete<{ Params: { id: string } }>('/connected_accounts/:id', { schema: { params: accountParams } }, async (request) =>
    request.env.disconnectAccount(request.params.id),
  );
}
