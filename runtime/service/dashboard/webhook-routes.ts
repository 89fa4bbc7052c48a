/**
 * The dashboard's webhook pages: endpoints (create, with the secret shown once; rotate the secret, shown once, and
 * delete, each after a confirmation page; creating and rotating are done once per form, `once-forms.ts`), the delivery log (filter by endpoint and status, paged both ways: `cursor-trail.ts`) and one delivery with its
 * payload and every attempt. Plain forms, no script, like the rest of the dashboard; everything goes through the
 * environment scope, as the API does.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EnvironmentScope } from '../../api.js';
import { ACCOUNT_EVENT_TYPES, type AccountEventType } from '../../webhooks/event-types.js';
import { canSendAgain, DEFAULT_ROTATION_OVERLAP_SECONDS, type WebhookDeliveryQuery } from '../../webhooks/webhook-api.js';
import type { WebhookDeliveryStatus } from '../../store/types.js';
import { parametersSchema } from '../routes/schemas.js';
import { listBackQuery, pageQuery, readTrail, trailLinks } from './cursor-trail.js';
import { filterOptions, listPageOptions, queryRefusal } from './list-query.js';
import type { EarlierSend, OnceOutcome } from './once-forms.js';

type Form = Record<string, string | string[] | undefined>;
type Handler<C> = (request: FastifyRequest, reply: FastifyReply, ctx: C) => Promise<FastifyReply>;

/** What the dashboard's own routes lend these pages; `C` is its signed-in context (session and environment). */
export interface WebhookPagesDeps<C extends { env: EnvironmentScope }> {
  /** Wraps a handler that needs a session (and, for POSTs, the CSRF value). */
  signedIn(handler: Handler<C>): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
  /** Renders a view inside the layout, with the signed-in basics of `ctx`. */
  page(reply: FastifyReply, ctx: C, name: string, context: Record<string, unknown> & { title: string }, status?: number): FastifyReply;
  formError(error: unknown, request: FastifyRequest): string;
  /** Does `act` once per one-time form (`once-forms.ts`); a send of the same form again answers the earlier send. */
  once<R>(ctx: C, body: unknown, action: string, subject: string, act: () => Promise<R>, record: (made: R) => Record<string, unknown>): Promise<OnceOutcome<R>>;
}

const STATUSES: WebhookDeliveryStatus[] = ['pending', 'delivered', 'failed'];

/** The delivery log's own parameters: its filters and its place (`cursor-trail.ts`). */
const LOG_PARAMETERS = ['endpoint_id', 'status', 'cursor', 'back'] as const;

/**
 * What each status means, on the filter: a delivery whose attempts fail stays `pending` while it is retried (24
 * hours) and is `failed` only once given up, so an operator asking which deliveries failed must not read "failed" as
 * every delivery whose receiver refused it.
 */
const STATUS_LABELS: Record<WebhookDeliveryStatus, string> = {
  pending: 'pending (not delivered yet: failing ones being retried too)',
  delivered: 'delivered',
  failed: 'failed (given up after 24 hours of retries)',
};

/** The checked event types of the create form (none checked means every type). */
function chosenEvents(form: Form): AccountEventType[] | undefined {
  const raw = form.events;
  const list = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((e): e is AccountEventType => (ACCOUNT_EVENT_TYPES as readonly string[]).includes(e));
  return list.length === 0 ? undefined : list;
}

/**
 * The page a one-time form sent again answers: what the first send made (the endpoint, and for a rotation until when
 * the previous secret signs), never the secret, which was shown once, on the first send's page.
 */
function sentAgain(earlier: EarlierSend, kind: 'created' | 'rotated'): Record<string, unknown> & { title: string } {
  return {
    title: kind === 'created' ? 'Webhook endpoint already created' : 'Secret already rotated',
    [kind]: true,
    again: { at: earlier.at, pending: earlier.result === null },
    ...(earlier.result ? { endpoint: earlier.result } : {}),
  };
}

export function registerWebhookPages<C extends { env: EnvironmentScope }>(app: FastifyInstance, deps: WebhookPagesDeps<C>): void {
  const { signedIn, page } = deps;

  const listPage = async (request: FastifyRequest, reply: FastifyReply, ctx: C, extra: Record<string, unknown> = {}, status = 200) => {
    const { env } = ctx;
    const q = request.query as { endpoint_id?: unknown; status?: unknown; cursor?: unknown; back?: unknown };
    const query: WebhookDeliveryQuery = { limit: 25 };
    // Kept as typed for the form, even when refused (`?status=bad`); a parameter given twice (a list) is refused, and not shown.
    if (typeof q.endpoint_id === 'string' && q.endpoint_id !== '') query.endpoint_id = q.endpoint_id;
    if (typeof q.status === 'string' && q.status !== '') query.status = q.status as WebhookDeliveryStatus;
    const at = readTrail(q);
    if (at.cursor !== undefined) query.cursor = at.cursor;
    // A query the API's rule refuses (GET only: a refused form's page reads none), or a cursor the list refuses
    // (edited by hand, or from another list), shows as the page's error, not an error page, and lists nothing.
    const refused = request.method === 'GET' ? queryRefusal(request) : undefined;
    const [endpoints, listed] = await Promise.all([
      env.listWebhookEndpoints(),
      refused
        ? { error: deps.formError(refused, request) }
        : env.listWebhookDeliveries(query).catch((error: unknown) => ({ error: deps.formError(error, request) })),
    ]);
    const deliveries = 'error' in listed ? { webhook_deliveries: [], next_cursor: null } : listed;
    const urls = new Map(endpoints.map((e) => [e.id, e.url]));
    const filters = { ...(query.endpoint_id ? { endpoint_id: query.endpoint_id } : {}), ...(query.status ? { status: query.status } : {}) };
    const pages = trailLinks(filters, at, deliveries.next_cursor);
    return page(reply, ctx, 'webhooks', {
      title: 'Webhooks',
      endpoints: endpoints.map((e) => ({ ...e, allEvents: e.events.length === ACCOUNT_EVENT_TYPES.length })),
      eventTypes: ACCOUNT_EVENT_TYPES.map((type) => ({ type, checked: (extra.checkedEvents as readonly string[] | undefined)?.includes(type) ?? false })),
      deliveries: deliveries.webhook_deliveries.map((d) => ({
        ...d,
        endpoint_url: urls.get(d.endpoint_id) ?? d.endpoint_id,
        // Pending after an attempt: that attempt failed (a delivered one is no longer pending), and it is retried.
        retrying: d.status === 'pending' && d.attempts > 0,
      })),
      statuses: filterOptions(STATUSES, query.status).map((o) => ({ ...o, label: STATUS_LABELS[o.value as WebhookDeliveryStatus] ?? o.value })),
      // Asked for the given-up ones: where the failing ones still being retried are, the same endpoint kept.
      ...(query.status === 'failed' ? { pendingPage: `?${new URLSearchParams({ ...(query.endpoint_id ? { endpoint_id: query.endpoint_id } : {}), status: 'pending' })}` } : {}),
      endpointFilter: endpoints.map((e) => ({ id: e.id, url: e.url, selected: e.id === query.endpoint_id })),
      // Each delivery's link carries this page's address, for its page's way back here.
      here: pageQuery(filters, at),
      newestPage: pages.newest,
      newerPage: pages.newer,
      nextPage: pages.older,
      ...(query.endpoint_id || query.status ? { filtered: true } : {}),
      ...((request.query as { deleted?: string }).deleted ? { flash: 'Webhook endpoint deleted.' } : {}),
      ...('error' in listed ? { error: listed.error } : {}),
      ...extra,
    }, status);
  };

  // The API's rule for the delivery log's filters and cursor (`GET /api/v1/webhook_deliveries`).
  const deliveriesQuery = parametersSchema('/api/v1/webhook_deliveries', 'get', 'query');
  app.get('/webhooks', listPageOptions(deliveriesQuery, ['endpoint_id', 'status', 'cursor'], ['back', 'deleted']), signedIn(async (request, reply, ctx) => listPage(request, reply, ctx)));

  app.post(
    '/webhooks',
    signedIn(async (request, reply, ctx) => {
      const form = (request.body ?? {}) as Form;
      const events = chosenEvents(form);
      try {
        const url = typeof form.url === 'string' ? form.url.trim() : '';
        const sent = await deps.once(ctx, form, 'webhook.create', url, () => ctx.env.createWebhookEndpoint({ url, ...(events ? { events } : {}) }), (e) => ({ id: e.id, url: e.url }));
        if ('earlier' in sent) return page(reply, ctx, 'webhook-secret', sentAgain(sent.earlier, 'created'));
        return page(reply, ctx, 'webhook-secret', { title: 'Webhook endpoint created', endpoint: sent.made, secret: sent.made.secret, created: true });
      } catch (error) {
        // In the form's own card, with what was typed and checked, so the user corrects rather than starts over.
        return listPage(request, reply, ctx, { createError: deps.formError(error, request), urlValue: form.url, checkedEvents: events ?? [] }, 400);
      }
    }),
  );

  // Rotating asks first: the new secret is shown once, the receiver has the overlap to switch, and a rotation under
  // way ends (its previous secret stops signing), so a second click must not happen by accident.
  app.get<{ Params: { id: string } }>(
    '/webhooks/:id/rotate',
    signedIn(async (request, reply, ctx) => {
      const endpoint = await ctx.env.getWebhookEndpoint((request.params as { id: string }).id);
      return page(reply, ctx, 'webhook-rotate', { title: 'Rotate webhook secret', endpoint, overlapHours: DEFAULT_ROTATION_OVERLAP_SECONDS / 3600 });
    }),
  );

  app.post<{ Params: { id: string } }>(
    '/webhooks/:id/rotate',
    signedIn(async (request, reply, ctx) => {
      const id = (request.params as { id: string }).id;
      // Once per form: a second rotation would end the overlap the receiver relies on.
      const sent = await deps.once(ctx, request.body, 'webhook.rotate', id, () => ctx.env.rotateWebhookSecret(id), (e) => ({ id: e.id, url: e.url, previous_secret_expires_at: e.previous_secret_expires_at }));
      if ('earlier' in sent) return page(reply, ctx, 'webhook-secret', sentAgain(sent.earlier, 'rotated'));
      return page(reply, ctx, 'webhook-secret', { title: 'Secret rotated', endpoint: sent.made, secret: sent.made.secret, rotated: true });
    }),
  );

  app.get<{ Params: { id: string } }>(
    '/webhooks/:id/delete',
    signedIn(async (request, reply, ctx) => {
      const endpoint = await ctx.env.getWebhookEndpoint((request.params as { id: string }).id);
      const pending = await ctx.env.listWebhookDeliveries({ endpoint_id: endpoint.id, status: 'pending', limit: 100 });
      return page(reply, ctx, 'webhook-delete', { title: 'Delete webhook endpoint', endpoint, pending: pending.webhook_deliveries.length, morePending: pending.next_cursor !== null });
    }),
  );

  app.post<{ Params: { id: string } }>(
    '/webhooks/:id/delete',
    signedIn(async (request, reply, ctx) => {
      await ctx.env.deleteWebhookEndpoint((request.params as { id: string }).id);
      return reply.redirect('/dashboard/webhooks?deleted=1', 303);
    }),
  );

  app.get<{ Params: { id: string } }>(
    '/webhooks/deliveries/:id',
    signedIn(async (request, reply, ctx) => {
      const delivery = await ctx.env.getWebhookDelivery((request.params as { id: string }).id);
      const retried = (request.query as { retried?: unknown }).retried === '1';
      // The log page it was opened from, for "Back to webhooks" (kept through "Send again now").
      const backQuery = listBackQuery(request.query as Record<string, unknown>, LOG_PARAMETERS);
      return page(reply, ctx, 'webhook-delivery', { title: `Delivery ${delivery.id}`, delivery, retried, backQuery, canRetry: canSendAgain(delivery.status), payloadText: JSON.stringify(delivery.payload, null, 2) });
    }),
  );

  // Send again now: for a receiver that is fixed, rather than wait for the next retry (up to 8 hours apart) or, past
  // the 24 hours, forever. The delivery's page shows that it is due, then its new attempt in its log. The rule (which
  // deliveries, what happens to them) is the scope's, as for `POST /api/v1/webhook_deliveries/{id}/retry`.
  app.post<{ Params: { id: string } }>(
    '/webhooks/deliveries/:id/retry',
    signedIn(async (request, reply, ctx) => {
      const id = (request.params as { id: string }).id;
      await ctx.env.retryWebhookDelivery(id);
      const back = new URLSearchParams(listBackQuery(request.query as Record<string, unknown>, LOG_PARAMETERS));
      back.set('retried', '1');
      return reply.redirect(`/dashboard/webhooks/deliveries/${encodeURIComponent(id)}?${back}`, 303);
    }),
  );
}
