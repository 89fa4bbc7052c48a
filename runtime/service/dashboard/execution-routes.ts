/**
 * The dashboard's execution history pages: the environment's tool calls and proxy requests, newest first, filtered
 * by connection, identifier, tool, outcome and error code (checked by the API's rule, `list-query.ts`: a refused one is the
 * page's error, not a list without it), paged with the API's cursor (and back, `cursor-trail.ts`); and one execution, with every
 * field and the recorded input (a not-found page for an id that is none of the environment's executions). Plain
 * forms, no script, like the rest of the dashboard; the pages read through the environment scope, as
 * `GET /api/v1/executions` and `GET /api/v1/executions/{execution_id}` do.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationHookHandler } from 'fastify';
import type { EnvironmentScope, ExecutionListQuery, ExecutionView } from '../../api.js';
import { errorSide, isConnectorError, isErrorCode, type ErrorSide } from '../../errors.js';
import { clipped } from '../../http/normalize.js';
import { refusedClientMessage } from '../../oauth/refresh-refusal.js';
import { apiSchemas } from '../routes/schemas.js';
import { listBackQuery, pageQuery, readTrail, trailLinks } from './cursor-trail.js';
import { filterOptions, listPageOptions, queryRefusal } from './list-query.js';

type Handler<C> = (request: FastifyRequest, reply: FastifyReply, ctx: C) => Promise<FastifyReply>;

export interface ExecutionPagesDeps<C extends { env: EnvironmentScope }> {
  signedIn(handler: Handler<C>): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
  page(reply: FastifyReply, ctx: C, name: string, context: Record<string, unknown> & { title: string }, status?: number): FastifyReply;
  formError(error: unknown, request: FastifyRequest): string;
}

const PAGE_SIZE = 25;

/**
 * How much of a failed call's message its row in the list shows (at a word break, ending in `…`): enough for what
 * went wrong and where (`Invalid input for calendar_create_event: start_datetime must be ...`, the provider's first
 * words), so an operator scanning failures reads them without opening each; the execution's page has all of it.
 */
const LIST_MESSAGE_CHARS = 160;

/**
 * The execution page's line on whose side a failed call's error points to, the catalogue's side (runtime/errors.ts,
 * the side column of docs/errors.md) put for the operator reading one execution, with what the provider answered.
 * A token refresh that refused the application's OAuth client is told from its recorded message
 * (`oauth/refresh-refusal.ts`): its side is the catalogue's for it, and its line names the connection to fix.
 * A stored code the catalogue does not have (a record kept from another version) is left to the service's logs.
 */
function sideLine(execution: ExecutionView): string {
  const { error_code: code, upstream_status: upstreamStatus } = execution;
  const refusedClient = refusedClientMessage(execution.error_message);
  const side: ErrorSide = code !== null && isErrorCode(code) ? errorSide(code, upstreamStatus, refusedClient) : 'service';
  if (side === 'authorization' && refusedClient) {
    return `The application's OAuth client on the connection${execution.connection_name === null ? '' : ` ${execution.connection_name}`}: the provider's token endpoint refused its client id or secret when the user's token was refreshed. The operator must fix the connection (Connections: its client id, or set its client secret again); neither a new authorization link for the user nor repeating the call will help.`;
  }
  switch (side) {
    case 'request':
      return upstreamStatus === null
        ? 'The request: the agent or application sent input the service refused; nothing was sent to the provider. Fix the call.'
        : `The request, as the provider judged it: it answered HTTP ${upstreamStatus} (e.g. a missing record or a refused value). Repeating the same call will not help; fix it.`;
    case 'authorization':
      return "The user's authorization: the account is not usable (not connected, revoked or expired at the provider) or lacks a scope the call needs. Send the user a new authorization link (Connections, Connected accounts), with the scopes needed.";
    case 'provider':
      return 'The provider: it failed, could not be reached, rate-limited the call or did not answer in time. The call may be retried later.';
    case 'service':
      return 'The service (see the logs for this time).';
  }
}

const FILTERS = ['connection_name', 'identifier', 'tool', 'outcome', 'error_code', 'since', 'until'] as const;

/**
 * The From and To fields are the browser's date and time pickers, which send a time without a zone
 * (`2026-11-25T10:05`, seconds when given); the page shows every time in UTC, so such a time is read as UTC and made
 * the RFC 3339 time the API takes (`2026-11-25T10:05:00Z`). Anything else is left to the API's rule.
 */
const utcTimes: preValidationHookHandler = (request, _reply, done) => {
  const query = request.query as Record<string, unknown>;
  for (const name of ['since', 'until']) {
    const value = query[name];
    if (typeof value !== 'string') continue;
    const local = /^(\d{4}-\d\d-\d\dT\d\d:\d\d)(:\d\d(?:\.\d{1,3})?)?$/.exec(value.trim());
    if (local) query[name] = `${local[1]}${local[2] ?? ':00'}Z`;
  }
  done();
};

/** A filter time as the date and time field shows it: the UTC time without its zone (the API's `Z` form only). */
function pickerValue(value: string | undefined): string {
  const utc = value === undefined ? null : /^(\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d)?)(?:\.\d+)?Z$/.exec(value);
  return utc ? utc[1]! : '';
}

function withUtcTimes(options: ReturnType<typeof listPageOptions>): ReturnType<typeof listPageOptions> {
  return { ...options, preValidation: [options.preValidation as preValidationHookHandler, utcTimes] };
}

export function registerExecutionPages<C extends { env: EnvironmentScope }>(app: FastifyInstance, deps: ExecutionPagesDeps<C>): void {
  app.get(
    '/executions',
    // The API's rule for these filters and the cursor (`GET /api/v1/executions`); a value it refuses is the page's error.
    withUtcTimes(listPageOptions(apiSchemas().executionsQuery, [...FILTERS, 'cursor'], ['back'])),
    deps.signedIn(async (request, reply, ctx) => {
      const q = request.query as Record<string, unknown>;
      const refused = queryRefusal(request);
      const filters: Record<string, string> = {};
      for (const name of FILTERS) {
        // Kept as typed for the form, even when refused; a parameter given twice (a list) is refused, and not shown.
        const value = typeof q[name] === 'string' ? q[name].trim() : undefined;
        if (value) filters[name] = value.slice(0, 200);
      }
      const at = readTrail(q);
      const query: ExecutionListQuery = { ...filters, limit: PAGE_SIZE, ...(at.cursor === undefined ? {} : { cursor: at.cursor }) } as ExecutionListQuery;
      const [connections, result] = await Promise.all([
        ctx.env.listConnections(),
        refused
          ? { error: deps.formError(refused, request) }
          : ctx.env.listExecutions(query).catch((error: unknown) => ({ error: deps.formError(error, request) })),
      ]);
      const listed = 'error' in result ? { executions: [], next_cursor: null } : result;
      const pages = trailLinks(filters, at, listed.next_cursor);
      return deps.page(reply, ctx, 'executions', {
        title: 'Executions',
        executions: listed.executions.map((e) => ({
          ...e,
          ok: e.outcome === 'success',
          // As stored: already redacted when recorded (error-message.ts); only shortened here.
          shortMessage: e.error_message ? clipped(e.error_message, LIST_MESSAGE_CHARS) : null,
        })),
        connectionFilter: connections.map((c) => ({ name: c.name, selected: c.name === filters.connection_name })),
        outcomes: filterOptions(['success', 'error'], filters.outcome),
        identifierValue: filters.identifier ?? '',
        toolValue: filters.tool ?? '',
        errorCodeValue: filters.error_code ?? '',
        sinceValue: pickerValue(filters.since),
        untilValue: pickerValue(filters.until),
        filtered: Object.keys(filters).length > 0,
        // Each row's link carries this page's address, for its page's way back here.
        here: pageQuery(filters, at),
        newestPage: pages.newest,
        newerPage: pages.newer,
        nextPage: pages.older,
        ...('error' in result ? { error: result.error } : {}),
      });
    }),
  );

  app.get(
    '/executions/:id',
    deps.signedIn(async (request, reply, ctx) => {
      const { id } = request.params as { id: string };
      // The list page it was opened from, for "Back to executions".
      const backQuery = listBackQuery(request.query as Record<string, unknown>, [...FILTERS, 'cursor', 'back']);
      try {
        const execution = await ctx.env.getExecution(id);
        return deps.page(reply, ctx, 'execution', {
          title: `Execution ${execution.operation}`,
          execution,
          backQuery,
          ok: execution.outcome === 'success',
          side: execution.error_code ? sideLine(execution) : null,
          inputText: execution.input === null || execution.input === undefined ? null : JSON.stringify(execution.input, null, 2),
        });
      } catch (error) {
        // Unknown, another environment's, purged or malformed: a page that says so, inside the signed-in layout.
        if (!isConnectorError(error) || error.code !== 'not_found') throw error;
        return deps.page(reply, ctx, 'execution', { title: 'Execution not found', missing: error.message, backQuery }, 404);
      }
    }),
  );
}
