/**
 * Webhook endpoints and their deliveries as the API shows them (`/api/v1/webhook_endpoints`,
 * `/api/v1/webhook_deliveries`), and the environment scope's methods behind those routes. A secret is shown when it
 * is made (create, rotate) and never again.
 */
import { ConnectorError } from '../errors.js';
import { readKeysetPage, type PageQuery } from '../list-page.js';
import { isIdOf } from '../store/ids.js';
import type { Store, WebhookAttemptRecord, WebhookDeliveryRecord, WebhookDeliveryStatus, WebhookEndpointRecord } from '../store/types.js';
import { ACCOUNT_EVENT_TYPES, isAccountEventType, type AccountEventType } from './event-types.js';
import { newWebhookSecret } from './signing.js';
import { violationError } from '../validation/violation-error.js';

/** How long the secret a rotation replaces keeps signing by default (the Standard Webhooks providers' usual day). */
export const DEFAULT_ROTATION_OVERLAP_SECONDS = 24 * 60 * 60;
const MAX_ROTATION_OVERLAP_SECONDS = 7 * 24 * 60 * 60;
/** Endpoints per environment: each one multiplies every event's deliveries. */
export const MAX_WEBHOOK_ENDPOINTS = 20;

export interface WebhookEndpointView {
  id: string;
  url: string;
  /** The event types sent to it (every type when it was created without a list). */
  events: AccountEventType[];
  /** Until when the secret replaced by the last rotation still signs beside the current one; null when none does. */
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Create and rotate answer with the secret: the only time it is shown. */
export interface WebhookEndpointWithSecret extends WebhookEndpointView {
  /** `whsec_…`: verify deliveries with it (Standard Webhooks). Shown once. */
  secret: string;
}

export interface CreateWebhookEndpointInput {
  url: string;
  /** Event types to send; omitted, every type (also ones added later). */
  events?: AccountEventType[];
}

export interface RotateWebhookSecretInput {
  /** How long the replaced secret keeps signing beside the new one (default 86400, at most 604800; 0 ends it now). */
  overlap_seconds?: number;
}

export interface WebhookAttemptView {
  attempted_at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

export interface WebhookDeliveryView {
  id: string;
  endpoint_id: string;
  /** The `webhook-id` of every attempt: receivers drop a delivery whose id they have seen. */
  event_id: string;
  event_type: AccountEventType;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveryDetail extends WebhookDeliveryView {
  /** The exact JSON body every attempt sent. */
  payload: unknown;
  attempt_log: WebhookAttemptView[];
}

export interface WebhookDeliveryQuery extends PageQuery {
  endpoint_id?: string;
  status?: WebhookDeliveryStatus;
}

/** One page of the delivery log: what `GET /api/v1/webhook_deliveries` answers. */
export interface WebhookDeliveryList {
  /** Newest first (created_at, then id). */
  webhook_deliveries: WebhookDeliveryView[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: string | null;
}

export interface WebhookApi {
  createWebhookEndpoint(input: CreateWebhookEndpointInput): Promise<WebhookEndpointWithSecret>;
  listWebhookEndpoints(): Promise<WebhookEndpointView[]>;
  getWebhookEndpoint(id: string): Promise<WebhookEndpointView>;
  rotateWebhookSecret(id: string, input?: RotateWebhookSecretInput): Promise<WebhookEndpointWithSecret>;
  deleteWebhookEndpoint(id: string): Promise<void>;
  /**
   * The delivery log a page at a time, newest first, by cursor: up to `limit` deliveries (1 to 200, default 50) older
   * than those of the page whose `next_cursor` is `cursor`. Keyset paging, as the other lists: a delivery written
   * meanwhile is newer than every page already read and shifts none. A cursor no page of this list returned, or given
   * with other filters than the page that returned it, is refused with `invalid_request` (pointer `/cursor`).
   */
  listWebhookDeliveries(query?: WebhookDeliveryQuery): Promise<WebhookDeliveryList>;
  getWebhookDelivery(id: string): Promise<WebhookDeliveryDetail>;
  /**
   * Sends a delivery that is not delivered again at the dispatcher's next poll (about a second), pending or failed:
   * for when the receiver is fixed (`POST /api/v1/webhook_deliveries/{id}/retry`, the dashboard's "Send again now").
   * Answers the delivery, now pending and due, its attempts and log kept. `conflict` for a delivered one or one being
   * attempted right now; `not_found` for an id that is no delivery of this environment.
   */
  retryWebhookDelivery(id: string): Promise<WebhookDeliveryDetail>;
}

/** Whether a delivery in this state may be sent again: any that is not delivered (the store's UPDATE has the same condition). */
export function canSendAgain(status: WebhookDeliveryStatus): boolean {
  return status !== 'delivered';
}

function endpointView(e: WebhookEndpointRecord, now: number): WebhookEndpointView {
  const overlapping = e.previousSecretExpiresAt !== null && Date.parse(e.previousSecretExpiresAt) > now;
  return {
    id: e.id,
    url: e.url,
    events: e.events ?? [...ACCOUNT_EVENT_TYPES],
    previous_secret_expires_at: overlapping ? e.previousSecretExpiresAt : null,
    created_at: e.createdAt,
    updated_at: e.updatedAt,
  };
}

function deliveryView(d: WebhookDeliveryRecord): WebhookDeliveryView {
  return {
    id: d.id,
    endpoint_id: d.endpointId,
    event_id: d.eventId,
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.nextAttemptAt,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
  };
}

function attemptView(a: WebhookAttemptRecord): WebhookAttemptView {
  return { attempted_at: a.attemptedAt, status_code: a.statusCode, duration_ms: a.durationMs, error: a.error };
}

function invalid(pointer: string, message: string, keyword: string): ConnectorError {
  return violationError('invalid_request', message, { pointer, message, keyword });
}

function notFound(what: string, id: string): ConnectorError {
  return new ConnectorError('not_found', `No ${what} ${JSON.stringify(String(id).slice(0, 100))} in this environment.`);
}

/** Checks the body of a create: the URL against the policy, the event types against the list. */
function checkCreate(input: CreateWebhookEndpointInput, urlRefusal: (url: unknown) => string | null): { url: string; events: AccountEventType[] | null } {
  if (input === null || typeof input !== 'object') throw invalid('', 'The body must be an object with a url.', 'type');
  const refusal = urlRefusal(input.url);
  if (refusal !== null) throw invalid('/url', `url ${refusal}`, 'url');
  if (input.events === undefined) return { url: input.url, events: null };
  if (!Array.isArray(input.events) || input.events.length === 0) throw invalid('/events', 'events must be a non-empty list of event types (omit it for every type).', 'type');
  input.events.forEach((type, i) => {
    if (!isAccountEventType(type)) throw invalid(`/events/${i}`, `${JSON.stringify(type)} is not an event type (one of ${ACCOUNT_EVENT_TYPES.join(', ')}).`, 'enum');
  });
  return { url: input.url, events: [...new Set(input.events)] };
}

export function webhookApi(store: Store, environmentId: string, deps: { now: () => number; urlRefusal: (url: unknown) => string | null }): WebhookApi {
  /** A delivery with its event's payload and its attempt log. */
  const detail = async (found: WebhookDeliveryRecord): Promise<WebhookDeliveryDetail> => {
    const [events, attempts] = await Promise.all([store.listAccountEvents(environmentId, { eventId: found.eventId }), store.listWebhookAttempts(environmentId, found.id)]);
    return { ...deliveryView(found), payload: events[0] === undefined ? null : JSON.parse(events[0].payload), attempt_log: attempts.map(attemptView) };
  };
  async function endpoint(id: string): Promise<WebhookEndpointRecord> {
    const found = typeof id === 'string' && id !== '' ? await store.getWebhookEndpoint(environmentId, id) : null;
    if (found === null) throw notFound('webhook endpoint', id);
    return found;
  }
  return {
    async createWebhookEndpoint(input) {
      const checked = checkCreate(input, deps.urlRefusal);
      if ((await store.listWebhookEndpoints(environmentId)).length >= MAX_WEBHOOK_ENDPOINTS) {
        throw new ConnectorError('conflict', `This environment already has ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints, the most it may have; delete one first.`);
      }
      const secret = newWebhookSecret();
      const rec = await store.createWebhookEndpoint({ environmentId, url: checked.url, events: checked.events, secret });
      return { ...endpointView(rec, deps.now()), secret };
    },
    async listWebhookEndpoints() {
      const now = deps.now();
      return (await store.listWebhookEndpoints(environmentId)).map((e) => endpointView(e, now));
    },
    async getWebhookEndpoint(id) {
      return endpointView(await endpoint(id), deps.now());
    },
    async rotateWebhookSecret(id, input = {}) {
      const overlap = input?.overlap_seconds ?? DEFAULT_ROTATION_OVERLAP_SECONDS;
      if (!Number.isInteger(overlap) || overlap < 0 || overlap > MAX_ROTATION_OVERLAP_SECONDS) {
        throw invalid('/overlap_seconds', `overlap_seconds must be an integer from 0 to ${MAX_ROTATION_OVERLAP_SECONDS}.`, 'maximum');
      }
      await endpoint(id);
      const secret = newWebhookSecret();
      const rec = await store.rotateWebhookSecret(environmentId, id, secret, new Date(deps.now() + overlap * 1000).toISOString());
      if (rec === null) throw notFound('webhook endpoint', id);
      return { ...endpointView(rec, deps.now()), secret };
    },
    async deleteWebhookEndpoint(id) {
      if (!(typeof id === 'string' && id !== '' && (await store.deleteWebhookEndpoint(environmentId, id)))) throw notFound('webhook endpoint', id);
    },
    async listWebhookDeliveries(query = {}) {
      const page = await readKeysetPage(query, isIdOf('whdl'), (d: WebhookDeliveryRecord) => ({ time: d.createdAt, id: d.id }), (limit, before) =>
        store.listWebhookDeliveries(environmentId, {
          ...(query.endpoint_id === undefined ? {} : { endpointId: query.endpoint_id }),
          ...(query.status === undefined ? {} : { status: query.status }),
          ...(before === undefined ? {} : { before: { createdAt: before.time, id: before.id } }),
          limit,
        }),
      );
      return { webhook_deliveries: page.items.map(deliveryView), next_cursor: page.nextCursor };
    },
    async retryWebhookDelivery(id) {
      const changed = typeof id === 'string' && id !== '' && (await store.retryWebhookDelivery(environmentId, id, new Date(deps.now()).toISOString()));
      // Read after the change, so a refusal says what the delivery is now (delivered, or under way, or gone).
      const found = typeof id === 'string' && id !== '' ? await store.getWebhookDelivery(environmentId, id) : null;
      if (found === null) throw notFound('webhook delivery', id);
      if (!changed) {
        throw new ConnectorError('conflict', canSendAgain(found.status)
          ? `Webhook delivery ${found.id} is being attempted right now; see its attempt_log in a moment.`
          : `Webhook delivery ${found.id} was delivered: there is nothing to send again.`);
      }
      return detail(found);
    },
    async getWebhookDelivery(id) {
      const found = typeof id === 'string' && id !== '' ? await store.getWebhookDelivery(environmentId, id) : null;
      if (found === null) throw notFound('webhook delivery', id);
      return detail(found);
    },
  };
}
