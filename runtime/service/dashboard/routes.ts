/**
 * The dashboard: a few server-rendered pages for the application owner. Sign in with the environment's client
 * credentials; list, create and edit connections (with the redirect URI to register); see connected accounts and
 * their states; make an authorization link; disconnect an account. Plain forms, no script.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountListFilter, Connector, EnvironmentScope, RevocationCounts } from '../../api.js';
import { REVOCATION_OUTCOMES, revocationCountsSentence, revocationSentence } from '../../revocation-text.js';
import { isConnectorError } from '../../errors.js';
import type { DevSandbox } from '../dev-sandbox.js';
import { CONNECTOR_NAMES, type ConnectorName } from '../../types.js';
import { SESSION_TTL_SECONDS, type AppAuth, type SessionClaims } from '../app-auth.js';
import type { AccountStatus } from '../../store/types.js';
import { toConnectorError } from '../errors.js';
import { PAGE_HEADERS, renderPage } from '../views.js';
import { checkCsrf, checkSameOrigin, clearSessionCookie, readSession, setSessionCookie, SESSION_COOKIE } from './session.js';
import { registerExecutionPages } from './execution-routes.js';
import { filterOptions, listPageOptions, queryRefusal } from './list-query.js';
import { apiSchemas } from '../routes/schemas.js';
import { newFormToken, OnceForms, type OnceOutcome } from './once-forms.js';
import { registerToolExplorer } from './tool-explorer-routes.js';
import { registerWebhookPages } from './webhook-routes.js';

interface Deps {
  connector: Connector;
  /** The environment scopes the service acts through (serviceEnvironments: a composed sandbox learns new clients). */
  environment(environmentId: string): EnvironmentScope;
  auth: AppAuth;
  sandbox?: DevSandbox;
  /** The per-client-address budget for credential checks (rate-limits.ts); rejects with `rate_limited`. */
  checkCredentialRate(request: FastifyRequest): Promise<void>;
}

type Form = Record<string, string | undefined>;

const ACCOUNT_STATUSES: AccountStatus[] = ['PENDING_AUTH', 'ACTIVE', 'EXPIRED', 'DISCONNECTED'];
const ACCOUNTS_PER_PAGE = 25;

/**
 * One page of the (filtered) accounts, read and counted by the store (the environment scope's `pageAccounts`), with
 * links that keep the filter.
 */
async function accountsPage(env: EnvironmentScope, filter: AccountListFilter & Record<string, string>, requested: number) {
  const { accounts, total, page } = await env.pageAccounts(filter, { limit: ACCOUNTS_PER_PAGE, page: requested });
  const pages = Math.max(1, Math.ceil(total / ACCOUNTS_PER_PAGE));
  const link = (n: number) => `?${new URLSearchParams({ ...filter, page: String(n) })}`;
  const start = (page - 1) * ACCOUNTS_PER_PAGE;
  return {
    items: accounts,
    nav: {
      total,
      from: accounts.length === 0 ? 0 : start + 1,
      to: start + accounts.length,
      ...(page > 1 ? { previous: link(page - 1) } : {}),
      ...(page < pages ? { next: link(page + 1) } : {}),
    },
  };
}

/** The endpoint overrides the connection form edits, one field each (an empty field: the provider's own). */
const OVERRIDE_KEYS = ['authorizationUrl', 'tokenUrl', 'revocationUrl', 'apiBaseUrl'] as const;
type Ctx = { session: SessionClaims; env: EnvironmentScope };

function field(form: Form, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value.trim() : '';
}

function scopesFrom(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

function page(reply: FastifyReply, name: string, context: Record<string, unknown> & { title: string }, status = 200): FastifyReply {
  return reply.code(status).headers(PAGE_HEADERS).send(renderPage(name, context));
}

/** A user-facing message for a failed form; bugs stay generic. */
function formError(error: unknown, request: FastifyRequest): string {
  const e = toConnectorError(error, request);
  if (e.code === 'internal') return `Something went wrong (request id ${request.id}).`;
  // Most messages already name their violations; only the ones a message leaves out are added, never twice.
  const violations = (e.details as { violations?: { message: string }[] } | undefined)?.violations ?? [];
  const missing = [...new Set(violations.map((v) => v.message))].filter((m) => !e.message.includes(m));
  return missing.length > 0 ? `${e.message}: ${missing.join('; ')}` : e.message;
}

/**
 * The messages of a refused form's fields, by the field's `name` in the form, from the violations the service's own
 * validation answered (the summary above the form says them all; this puts each beside its field): `/name` is the
 * field `name`, `/overrides/tokenUrl` the field `override_tokenUrl`. A violation no field of the form names is only in
 * the summary.
 */
function fieldErrors(error: unknown, request: FastifyRequest, fields: readonly string[]): Record<string, string> {
  const e = toConnectorError(error, request);
  const violations = (e.details as { violations?: { pointer?: string; message: string }[] } | undefined)?.violations ?? [];
  const byField = new Map<string, string[]>();
  for (const v of violations) {
    const name = (v.pointer ?? '').slice(1).replace(/^overrides\//, 'override_');
    if (!fields.includes(name)) continue;
    const said = byField.get(name) ?? [];
    if (!said.includes(v.message)) byField.set(name, [...said, v.message]);
  }
  return Object.fromEntries([...byField].map(([name, messages]) => [name, messages.join('; ')]));
}

/** The fields of the new-connection form and of a connection's edit form, by their names. */
const NEW_CONNECTION_FIELDS = ['name', 'connector', 'client_id', 'client_secret', 'scopes'] as const;
const EDIT_CONNECTION_FIELDS = ['name', 'client_id', 'client_secret', 'scopes', 'allowed_redirect_urls', ...OVERRIDE_KEYS.map((key) => `override_${key}`)] as const;

export async function registerDashboard(app: FastifyInstance, deps: Deps): Promise<void> {
  const secure = deps.connector.baseUrl.startsWith('https:');
  const publicOrigin = new URL(deps.connector.baseUrl).origin;

  /** Wraps a handler that needs a session; POSTs also need the session's CSRF value. */
  const signedIn =
    (handler: (request: FastifyRequest, reply: FastifyReply, ctx: Ctx) => Promise<FastifyReply>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const session = await readSession(deps.auth, request);
      if (!session) {
        // A form posted, or a cookie that no longer holds a session (expired, signed out, key rotated): the sign-in
        // page says the session ended, and that a posted form was not saved, instead of appearing out of nowhere.
        const ended = request.method === 'POST' ? 'form' : request.cookies[SESSION_COOKIE] ? '1' : undefined;
        return reply.redirect(ended ? `/dashboard/login?ended=${ended}` : '/dashboard/login', 303);
      }
      if (request.method === 'POST') checkCsrf(session, request.body);
      return handler(request, reply, { session, env: deps.environment(session.environmentId) });
    };

  /** What the layout's header needs of a session: the sections and the Sign out form with its CSRF value. */
  const header = (session: SessionClaims) => ({ signedIn: true, csrf: session.csrf, clientId: session.clientId });
  /** A signed-in page: the header, and a new token for its one-time forms (`once-forms.ts`). */
  const base = (ctx: Ctx) => ({ ...header(ctx.session), formToken: newFormToken() });
  const onceForms = new OnceForms(deps.connector.store);
  const once = <R>(ctx: Ctx, body: unknown, action: string, subject: string, act: () => Promise<R>, record: (made: R) => Record<string, unknown>): Promise<OnceOutcome<R>> =>
    onceForms.send(ctx.session, body, action, subject, act, record);

  /**
   * The connection's page. Its edit form shows the stored values, or `submitted` (the form a failed save posted), so
   * an error never throws away what the user typed; the secret field is always empty. It lists the connection's first
   * page of accounts and links the accounts list, filtered to it, for the rest: a connection may have thousands.
   */
  const connectionPage = async (reply: FastifyReply, ctx: Ctx, idOrName: string, extra: Record<string, unknown> = {}, status = 200, submitted?: Form) => {
    const connection = await ctx.env.getConnection(idOrName);
    const accounts = await accountsPage(ctx.env, { connection_name: connection.name }, 1);
    const values = submitted
      ? {
          name: submitted.name ?? '',
          client_id: submitted.client_id ?? '',
          scopes: submitted.scopes ?? '',
          allowed_redirect_urls: submitted.allowed_redirect_urls ?? '',
          overrides: Object.fromEntries(OVERRIDE_KEYS.map((key) => [key, submitted[`override_${key}`] ?? ''])),
        }
      : {
          name: connection.name,
          client_id: connection.client_id,
          scopes: connection.scopes.join(' '),
          allowed_redirect_urls: connection.allowed_redirect_urls.join('\n'),
          overrides: connection.overrides,
        };
    return page(reply, 'connection', { ...base(ctx), title: connection.name, connection, values, accounts: accounts.items, accountsPage: accounts.nav, allAccounts: `?${new URLSearchParams({ connection_name: connection.name })}`, ...extra }, status);
  };

  app.get('/login', async (request, reply) => {
    if (await readSession(deps.auth, request)) return reply.redirect('/dashboard', 303);
    const { ended } = request.query as { ended?: string };
    const notice = ended === undefined ? undefined : `Your session has ended (a session lasts ${SESSION_TTL_SECONDS / 3600} hours; signing out ends it); sign in again.${ended === 'form' ? ' The form you sent was not saved.' : ''}`;
    return page(reply, 'login', { title: 'Sign in', ...(notice ? { flash: notice } : {}) });
  });

  app.post('/login', async (request, reply) => {
    checkSameOrigin(request, publicOrigin);
    await deps.checkCredentialRate(request);
    const form = (request.body ?? {}) as Form;
    const claims = await deps.auth.authenticateClient(field(form, 'client_id'), field(form, 'client_secret'));
    if (!claims) return page(reply, 'login', { title: 'Sign in', error: 'Unknown client id or wrong secret.', clientIdValue: field(form, 'client_id') }, 401);
    const session = await deps.auth.issueSession(claims);
    setSessionCookie(reply, session.token, secure);
    return reply.redirect('/dashboard', 303);
  });

  app.post('/logout', async (request, reply) => {
    const session = await readSession(deps.auth, request);
    if (session) {
      checkCsrf(session, request.body);
      // Revoked in the store, not only cleared here: a copy of the cookie replayed later is refused too.
      await deps.auth.revokeSession(session);
    }
    clearSessionCookie(reply, secure);
    return reply.redirect('/dashboard/login', 303);
  });

  app.get(
    '/',
    // The API's rule for the accounts' filters (`GET /api/v1/connected_accounts`); a value it refuses is the page's error.
    // The page number too: `page=abc` or `page=0` is refused as a bad filter is, not read as the first page.
    listPageOptions(apiSchemas().accountsQuery, ['identifier', 'connection_name', 'status'], ['deleted', 'disconnected', 'connector', ...REVOCATION_COUNTED], true),
    signedIn(async (request, reply, ctx) => {
      const q = request.query as { deleted?: string; disconnected?: string; identifier?: unknown; connection_name?: unknown; status?: unknown; page?: number };
      const refused = queryRefusal(request);
      // Kept as typed for the form, even when refused; a parameter given twice (a list) is refused, and not shown.
      const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
      const filter = {
        ...(text(q.identifier) ? { identifier: text(q.identifier) } : {}),
        ...(text(q.connection_name) ? { connection_name: text(q.connection_name) } : {}),
        ...(text(q.status) ? { status: text(q.status) as AccountStatus } : {}),
      };
      const empty = { items: [], nav: { total: 0, from: 0, to: 0 } };
      const [connections, paged] = await Promise.all([ctx.env.listConnections(), refused ? empty : accountsPage(ctx.env, filter, q.page ?? 1)]);
      const flash = q.deleted ? deletionFlash(q) : undefined;
      return page(reply, 'home', {
        ...base(ctx),
        title: 'Connections',
        connections,
        accounts: paged.items,
        accountsPage: paged.nav,
        accountFilter: filter,
        accountsFiltered: Object.keys(filter).length > 0,
        connectionOptions: connections.map((c) => ({ name: c.name, selected: c.name === filter.connection_name })),
        statusOptions: filterOptions(ACCOUNT_STATUSES, filter.status),
        environmentId: ctx.session.environmentId,
        ...(flash ? { flash } : {}),
        ...(refused ? { error: formError(refused, request), accountsRefused: true } : {}),
      });
    }),
  );

  app.get(
    '/connections/new',
    signedIn(async (_request, reply, ctx) =>
      page(reply, 'connection-new', { ...base(ctx), title: 'New connection', connectors: CONNECTOR_NAMES, sandboxAvailable: Boolean(deps.sandbox) }),
    ),
  );

  app.post(
    '/connections',
    signedIn(async (request, reply, ctx) => {
      const form = (request.body ?? {}) as Form;
      const connector = field(form, 'connector') as ConnectorName;
      const useSandbox = Boolean(deps.sandbox) && form.use_sandbox === 'on';
      try {
        const clientSecret = field(form, 'client_secret');
        const scopes = scopesFrom(field(form, 'scopes'));
        const view = await ctx.env.createConnection({
          name: field(form, 'name'),
          connector,
          client_id: field(form, 'client_id'),
          client_secret: clientSecret,
          ...(scopes.length ? { scopes } : {}),
          // A connector that is none of them is refused by createConnection, with the form's other problems.
          ...(useSandbox && deps.sandbox && CONNECTOR_NAMES.includes(connector) ? { overrides: deps.sandbox.endpoints(connector) } : {}),
        });
        // On the sandbox there is nothing to register: the scope registered the client (sandbox-connections.ts), and
        // the page says so.
        return reply.redirect(`/dashboard/connections/${encodeURIComponent(view.id)}?created=${useSandbox ? 'sandbox' : '1'}`, 303);
      } catch (error) {
        return page(
          reply,
          'connection-new',
          {
            ...base(ctx),
            title: 'New connection',
            connectors: CONNECTOR_NAMES,
            sandboxAvailable: Boolean(deps.sandbox),
            form,
            error: formError(error, request),
            fieldErrors: fieldErrors(error, request, NEW_CONNECTION_FIELDS),
          },
          isConnectorError(error) ? error.status : 400,
        );
      }
    }),
  );

  app.get<{ Params: { id: string }; Querystring: { created?: string; saved?: string; disconnected?: string; revocation?: string; provider_status?: string } }>(
    '/connections/:id',
    signedIn(async (request, reply, ctx) => {
      const { id } = request.params as { id: string };
      const q = request.query as { created?: string; saved?: string; disconnected?: string; revocation?: string; provider_status?: string };
      const disconnected = q.disconnected ? await ctx.env.getAccount(q.disconnected).catch(() => undefined) : undefined;
      const flash = q.created
        ? q.created === 'sandbox'
          ? 'Connection created on the local sandbox, which has its client and redirect URI already: create an authorization link below.'
          : 'Connection created. Register the redirect URI below with the provider.'
        : q.saved
          ? q.saved === 'secret'
            ? 'Saved, with the new client secret: token refreshes and new authorizations use it from now on; the old one is no longer stored.'
            : 'Saved. The client secret is unchanged.'
          : disconnected?.status === 'DISCONNECTED'
            ? `${disconnected.identifier} disconnected: ${disconnectedSentence(q, disconnected.connector)}`
            : undefined;
      return connectionPage(reply, ctx, id, flash ? { flash } : {});
    }),
  );

  app.post<{ Params: { id: string } }>(
    '/connections/:id',
    signedIn(async (request, reply, ctx) => {
      const { id } = request.params as { id: string };
      const form = (request.body ?? {}) as Form;
      try {
        const secret = field(form, 'client_secret');
        const overrides = Object.fromEntries(
          OVERRIDE_KEYS.flatMap((key) => (field(form, `override_${key}`) === '' ? [] : [[key, field(form, `override_${key}`)]])),
        );
        const view = await ctx.env.updateConnection(id, {
          name: field(form, 'name'),
          client_id: field(form, 'client_id'),
          scopes: scopesFrom(field(form, 'scopes')),
          allowed_redirect_urls: field(form, 'allowed_redirect_urls').split(/\s+/).filter(Boolean),
          overrides,
          ...(secret ? { client_secret: secret } : {}),
        });
        // A sandbox connection's new client is registered with the sandbox by the scope itself (sandbox-connections.ts).
        // Whether the secret was replaced, said on the page: the field is empty again after a save either way.
        return reply.redirect(`/dashboard/connections/${encodeURIComponent(view.id)}?saved=${secret ? 'secret' : '1'}`, 303);
      } catch (error) {
        return connectionPage(reply, ctx, id, { error: formError(error, request), fieldErrors: fieldErrors(error, request, EDIT_CONNECTION_FIELDS) }, 400, form);
      }
    }),
  );

  // Deleting asks first, on a page that says what it does: how many accounts it disconnects (revoking their tokens).
  app.get<{ Params: { id: string } }>(
    '/connections/:id/delete',
    signedIn(async (request, reply, ctx) => {
      const connection = await ctx.env.getConnection((request.params as { id: string }).id);
      // One query for every status: the records deleted, and those holding tokens (ACTIVE, EXPIRED) that are revoked.
      const counts = await ctx.env.countAccountsByStatus({ connection_name: connection.name });
      const records = Object.values(counts).reduce((sum, n) => sum + n, 0);
      return page(reply, 'connection-delete', { ...base(ctx), title: `Delete ${connection.name}`, connection, records, connected: counts.ACTIVE + counts.EXPIRED });
    }),
  );

  app.post<{ Params: { id: string } }>(
    '/connections/:id/delete',
    signedIn(async (request, reply, ctx) => {
      const connection = await ctx.env.getConnection((request.params as { id: string }).id);
      const done = await ctx.env.deleteConnection(connection.id);
      // What the provider did, counted by outcome, travels to the page that says it (counts only, no token).
      const counts = Object.fromEntries(REVOCATION_COUNTED.map((k) => [k, String(done.revocations[k])]));
      return reply.redirect(`/dashboard?${new URLSearchParams({ deleted: done.name, disconnected: String(done.disconnected_accounts), connector: connection.connector, ...counts })}`, 303);
    }),
  );

  registerWebhookPages<Ctx>(app, {
    signedIn,
    page: (reply, ctx, name, context, status) => page(reply, name, { ...base(ctx), ...context }, status),
    formError,
    once,
  });
  registerToolExplorer<Ctx>(app, {
    connector: deps.connector,
    signedIn,
    page: (reply, ctx, name, context, status) => page(reply, name, { ...base(ctx), ...context }, status),
    once,
  });
  registerExecutionPages<Ctx>(app, {
    signedIn,
    page: (reply, ctx, name, context, status) => page(reply, name, { ...base(ctx), ...context }, status),
    formError,
  });

  app.post<{ Params: { id: string } }>(
    '/connections/:id/link',
    signedIn(async (request, reply, ctx) => {
      const { id } = request.params as { id: string };
      const identifier = field((request.body ?? {}) as Form, 'identifier');
      try {
        const connection = await ctx.env.getConnection(id);
        // Once per form: a reload of the link's page shows the link it made again instead of making another.
        const sent = await once(ctx, request.body, 'link.create', `${connection.id} ${identifier}`, () => ctx.env.authorizationLink({ connection_name: connection.name, identifier }), (link) => ({ link, identifier }));
        if ('made' in sent) return connectionPage(reply, ctx, id, { link: sent.made, linkIdentifier: identifier });
        const made = sent.earlier.result as { link: unknown; identifier: string } | null;
        return connectionPage(reply, ctx, id, { linkAgain: { at: sent.earlier.at, pending: made === null }, ...(made ? { link: made.link, linkIdentifier: made.identifier } : {}) });
      } catch (error) {
        // Shown in the link's own card, beside the identifier it is about, not above the connection's edit form.
        return connectionPage(reply, ctx, id, { linkError: formError(error, request), linkIdentifier: identifier }, 400);
      }
    }),
  );

  // Disconnecting asks first, on a page that says what it does.
  app.get<{ Params: { id: string } }>(
    '/accounts/:id/disconnect',
    signedIn(async (request, reply, ctx) => {
      const account = await ctx.env.getAccount((request.params as { id: string }).id);
      return page(reply, 'account-disconnect', { ...base(ctx), title: `Disconnect ${account.identifier}`, account });
    }),
  );

  app.post<{ Params: { id: string } }>(
    '/accounts/:id/disconnect',
    signedIn(async (request, reply, ctx) => {
      const account = await ctx.env.disconnectAccount((request.params as { id: string }).id);
      // The account id, not the identifier (often an e-mail address), goes in the URL; the page says whom it was.
      // The outcome at the provider travels to the page that says it (no token in it: an outcome and a status).
      const told = { disconnected: account.id, revocation: account.revocation.outcome, ...(account.revocation.provider_status === null ? {} : { provider_status: String(account.revocation.provider_status) }) };
      return reply.redirect(`/dashboard/connections/${encodeURIComponent(account.connection_id)}?${new URLSearchParams(told)}`, 303);
    }),
  );

  // A path the dashboard does not have is a page saying so, not the API's JSON error.
  app.setNotFoundHandler((request, reply) =>
    page(reply, 'not-found', { title: 'Not found', path: (request.url.split('?')[0] ?? '').slice(0, 200) }, 404),
  );

  // Errors inside the dashboard render as pages; an expired session goes back to sign-in. A signed-in user keeps the
  // header (the sections and Sign out), so a missing record is not a dead end.
  app.setErrorHandler(async (error, request, reply) => {
    const e = toConnectorError(error, request);
    if (e.code === 'unauthorized' && request.method === 'GET' && !request.cookies[SESSION_COOKIE]) return reply.redirect('/dashboard/login', 303);
    const session = await readSession(deps.auth, request).catch(() => null);
    // The title is the page's h1 too: a record that does not exist is "Not found", as a path that does not is.
    return page(reply, 'error', { title: e.status === 404 ? 'Not found' : 'Error', ...(session ? header(session) : { signedIn: false }), error: e.code === 'internal' ? `Something went wrong (request id ${request.id}).` : e.message }, e.status);
  });
}

/** The outcomes a connection's deletion counts, as the names of the dashboard's query parameters. */
const REVOCATION_COUNTED = ['revoked', 'refused', 'unreachable', 'not_offered', 'not_sent'] as const satisfies readonly (keyof RevocationCounts)[];

const count = (value: unknown): number => {
  const n = Number(value ?? 0);
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
};

/** The flash after a connection's deletion, from the counts its redirect carried. */
function deletionFlash(q: Record<string, unknown>): string {
  const head = `Connection ${String(q.deleted)} deleted; ${count(q.disconnected)} connected account(s) disconnected.`;
  const connector = CONNECTOR_NAMES.find((name) => name === q.connector);
  if (connector === undefined) return head;
  const counts = Object.fromEntries(REVOCATION_COUNTED.map((k) => [k, count(q[k])])) as RevocationCounts;
  return [head, revocationCountsSentence(counts, connector)].filter(Boolean).join(' ');
}

/** What an account's disconnect redirect said happened, after "<identifier> disconnected: "; without it, only what is sure. */
function disconnectedSentence(q: { revocation?: string; provider_status?: string }, connector: ConnectorName): string {
  const outcome = REVOCATION_OUTCOMES.find((o) => o === q.revocation);
  if (outcome === undefined) return 'its tokens are deleted here (revocation at the provider was requested; a refusal is logged).';
  const status = Number(q.provider_status);
  return revocationSentence({ outcome, provider_status: Number.isInteger(status) && status >= 100 && status <= 599 ? status : null }, connector);
}
