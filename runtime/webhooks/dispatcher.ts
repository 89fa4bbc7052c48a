/**
 * Delivers the account events outbox to webhook endpoints. One dispatcher runs per service instance: every
 * `pollIntervalMs` it claims due deliveries from the store (a lease per delivery, so instances sharing PostgreSQL
 * never send the same attempt twice), sends each one signed (`signing.ts`), logs the attempt and schedules the next
 * one on failure (`retry-schedule.ts`).
 *
 * Guarantees: at-least-once. An event is in the outbox from the commit of the change it reports; a dispatcher killed
 * mid-send leaves the claim to lapse after `leaseMs`, and another instance (or the next start) sends it again with the
 * same `webhook-id`, which receivers use to drop duplicates. Order between events is not guaranteed (retries
 * overtake); each payload carries the account's status as of its event and a timestamp.
 */
import { randomUUID } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import { ForbiddenAddressError, guardedLookup } from '../http/guarded-lookup.js';
import { strictWebhookAddressRefusal } from './endpoint-url.js';
import type { ClaimedDelivery, Store, WebhookAttemptOutcome } from '../store/types.js';
import { nextAttemptAt } from './retry-schedule.js';
import { signWebhook } from './signing.js';

export interface WebhookDispatcherOptions {
  store: Pick<Store, 'claimWebhookDeliveries' | 'recordWebhookAttempt'>;
  /** Why a URL may not be sent to now, or null (the endpoint URL policy, checked again before every attempt). */
  urlRefusal: (url: string) => string | null;
  /**
   * Why the address an endpoint's host name resolved to may not be connected to, or null (the same policy, checked at
   * connect time: `http/guarded-lookup.ts`). Absent: the strictest rule, the production default's with no origin
   * listed ({@link strictWebhookAddressRefusal}): never a loopback, private or link-local answer. There is no
   * unguarded dispatcher; an address literal in the URL is judged by `urlRefusal` alone (it is never looked up).
   */
  addressRefusal?: (hostname: string, address: string) => string | null;
  /** The resolver that check wraps (default `dns.lookup`); a test answers made-up names with it. */
  lookup?: LookupFunction;
  /** Clock in ms; tests move it to make retries due. */
  now?: () => number;
  /** In [0, 1), for retry jitter. */
  random?: () => number;
  /** How often due deliveries are looked for. Default 1000 ms. */
  pollIntervalMs?: number;
  /** Deliveries claimed per round (sent concurrently). Default 16. */
  batchSize?: number;
  /** Per-request deadline (connect, headers and body). Default 10 s. */
  timeoutMs?: number;
  /** How long a claim lasts: longer than a request may take. Default `timeoutMs` + 30 s. */
  leaseMs?: number;
  logger?: { warn(obj: object, msg?: string): void; info?(obj: object, msg?: string): void };
  /** Claim owner name, for logs and tests; default unique per dispatcher. */
  owner?: string;
}

/** What a receiver's answer body may add to the attempt log (a hint, not its whole page). */
const MAX_BODY_EXCERPT = 200;

export class WebhookDispatcher {
  readonly owner: string;
  readonly #store: WebhookDispatcherOptions['store'];
  readonly #urlRefusal: (url: string) => string | null;
  readonly #now: () => number;
  readonly #random: () => number;
  readonly #pollIntervalMs: number;
  readonly #batchSize: number;
  readonly #timeoutMs: number;
  readonly #leaseMs: number;
  readonly #logger: WebhookDispatcherOptions['logger'];
  readonly #agent: Agent;
  #timer: NodeJS.Timeout | null = null;
  #round: Promise<number> | null = null;
  #stopped = false;

  constructor(opts: WebhookDispatcherOptions) {
    this.#store = opts.store;
    this.#urlRefusal = opts.urlRefusal;
    this.#now = opts.now ?? Date.now;
    this.#random = opts.random ?? Math.random;
    this.#pollIntervalMs = opts.pollIntervalMs ?? 1000;
    this.#batchSize = opts.batchSize ?? 16;
    this.#timeoutMs = opts.timeoutMs ?? 10_000;
    this.#leaseMs = opts.leaseMs ?? this.#timeoutMs + 30_000;
    this.#logger = opts.logger;
    this.owner = opts.owner ?? `webhooks:${process.pid}:${randomUUID()}`;
    // Its own connection pool: webhook receivers are not upstream APIs and must not share their limits. No
    // redirects are followed (undici's request does not follow them): a 3xx is a failed attempt.
    // A refused answer fails the connection with a ForbiddenAddressError, logged as the attempt's error.
    const lookup = guardedLookup(opts.addressRefusal ?? strictWebhookAddressRefusal, opts.lookup);
    this.#agent = new Agent({ connect: { timeout: this.#timeoutMs, lookup }, headersTimeout: this.#timeoutMs, bodyTimeout: this.#timeoutMs });
  }

  /** Polls until {@link stop}. The timer is unref'd: it never keeps a process alive by itself. */
  start(): void {
    if (this.#timer !== null || this.#stopped) return;
    const tick = (): void => {
      void this.runOnce()
        .catch((error: unknown) => this.#logger?.warn({ err: error }, 'webhook delivery round failed'))
        .finally(() => {
          if (!this.#stopped) this.#timer = setTimeout(tick, this.#pollIntervalMs).unref();
        });
    };
    this.#timer = setTimeout(tick, 0).unref();
  }

  /** Stops polling, waits for the round in progress (its attempts are recorded), and closes the connections. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#round?.catch(() => 0);
    await this.#agent.close();
  }

  /** One round: claims what is due and attempts it. Returns how many attempts were made. Rounds never overlap. */
  runOnce(): Promise<number> {
    this.#round ??= this.#claimAndSend().finally(() => (this.#round = null));
    return this.#round;
  }

  async #claimAndSend(): Promise<number> {
    let made = 0;
    for (;;) {
      const claimed = await this.#store.claimWebhookDeliveries({
        owner: this.owner,
        now: new Date(this.#now()).toISOString(),
        leaseMs: this.#leaseMs,
        limit: this.#batchSize,
      });
      await Promise.all(claimed.map((c) => this.#attempt(c)));
      made += claimed.length;
      // A full batch may mean more are due; a short one means the queue is drained for now.
      if (claimed.length < this.#batchSize || this.#stopped) return made;
    }
  }

  async #attempt(claimed: ClaimedDelivery): Promise<void> {
    const { delivery, event, endpoint } = claimed;
    const started = this.#now();
    const clockStart = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    let refusedAddress: string | undefined;
    const refusal = this.#urlRefusal(endpoint.url);
    if (refusal !== null) {
      error = `not sent: the endpoint URL ${refusal}`;
    } else {
      const secrets = [endpoint.secret];
      if (endpoint.previousSecret !== null && endpoint.previousSecretExpiresAt !== null && Date.parse(endpoint.previousSecretExpiresAt) > started) {
        secrets.push(endpoint.previousSecret);
      }
      const headers = signWebhook(event.id, new Date(started), event.payload, secrets);
      try {
        const res = await request(endpoint.url, {
          method: 'POST',
          dispatcher: this.#agent,
          headers: { 'content-type': 'application/json', 'user-agent': 'agent-connector-webhooks', ...headers },
          body: event.payload,
          signal: AbortSignal.timeout(this.#timeoutMs),
        });
        statusCode = res.statusCode;
        if (statusCode < 200 || statusCode >= 300) {
          const text = (await res.body.text().catch(() => '')).slice(0, MAX_BODY_EXCERPT).replace(/\s+/g, ' ').trim();
          error = `HTTP ${statusCode}${text === '' ? '' : `: ${text}`}`;
        } else {
          await res.body.dump();
        }
      } catch (e) {
        if (e instanceof ForbiddenAddressError) {
          // The attempt log is the environment's to read: naming the address would tell a tenant what any name (an
          // internal one of a split-horizon DNS) resolves to on the service's network. The operator's log has it.
          error = `${e.code}: ${e.hostname} resolved to an address that ${e.refusal}`;
          refusedAddress = e.address;
        } else {
          const err = e as { code?: string; message?: string; name?: string };
          error = `${err.code ?? err.name ?? 'error'}: ${err.message ?? String(e)}`;
        }
      }
    }
    const durationMs = performance.now() - clockStart;
    const finished = this.#now();
    let next: WebhookAttemptOutcome['next'];
    if (error === null) {
      next = { status: 'delivered' };
    } else {
      const at = nextAttemptAt(delivery.attempts + 1, Date.parse(event.createdAt), finished, this.#random);
      next = at === null ? { status: 'failed' } : { status: 'pending', nextAttemptAt: new Date(at).toISOString() };
      // Why, when the receiver gave no status (refused connection, timeout, a URL the policy refuses now); an HTTP
      // status is its own why, and the receiver's body stays in the delivery log.
      this.#logger?.warn(
        { deliveryId: delivery.id, eventId: event.id, endpointId: endpoint.id, attempt: delivery.attempts + 1, status: statusCode, ...(statusCode === null ? { error } : {}), ...(refusedAddress === undefined ? {} : { address: refusedAddress }), next: next.status },
        'webhook delivery attempt failed',
      );
    }
    await this.#store.recordWebhookAttempt(delivery.id, this.owner, {
      attemptedAt: new Date(started).toISOString(),
      statusCode,
      durationMs,
      error,
      next,
    });
  }
}
