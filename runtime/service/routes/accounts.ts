/** Authorization links and connected accounts, listed a page at a time. Views never carry a token. */
import type { FastifyInstance } from 'fastify';
import type { AccountListQuery, AuthorizationLinkInput } from '../../api.js';
import { numericLimit } from './page-query.js';
import { apiSchemas } from './schemas.js';

export function registerAccountRoutes(api: FastifyInstance): void {
  const { accountsQuery, accountParams, magicLinkBody } = apiSchemas();
  api.post<{ Body: AuthorizationLinkInput }>('/connected_accounts/magic_link', { schema: { body: magicLinkBody } }, async (request) =>
    request.env.authorizationLink(request.body),
  );

  // A page at a time (an environment may have tens of thousands of end users), by cursor, oldest first.
  api.get<{ Querystring: AccountListQuery }>(
    '/connected_accounts',
    { schema: { querystring: accountsQuery }, preValidation: numericLimit },
    async (request) => request.env.listAccountsPage(request.query),
  );

  api.get<{ Params: { id: string } }>('/connected_accounts/:id', { schema: { params: accountParams } }, async (request) =>
    request.env.getAccount(request.params.id),
  );

  api.delete<{ Params: { id: string } }>('/connected_accounts/:id', { schema: { params: accountParams } }, async (request) =>
    request.env.disconnectAccount(request.params.id),
  );
}
