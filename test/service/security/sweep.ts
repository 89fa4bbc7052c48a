/**
 * What the secret sweep (secret-sweep.test.ts) is made of: the secrets it collects, a client of the service that keeps
 * every answer, a browser's cookie jar over it, and the search of a sink's text for every secret.
 */
import { cookieFrom } from '../../../runtime/cli/consent.js';
import { secretAad, type SecretBox } from '../../../runtime/crypto/secret-box.js';
import { SECRET_COLUMNS } from '../../../runtime/store/records.js';
import { readStateFile } from '../../../sandbox/persist/state-file.js';
import type { TestDatabase } from '../../runtime/store/harness.js';

/** Shorter values could match by chance; every secret here is far longer, and a shorter one is a mistake to report. */
const MIN_SECRET_LENGTH = 16;

/** Every secret value the test saw or could read, each with what it is. */
export class Secrets {
  readonly #kinds = new Map<string, string>();

  /** Adds `value` as a secret of this kind (the first kind given for a value is kept); returns it. */
  add(kind: string, value: unknown): string {
    if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) throw new Error(`${kind}: ${JSON.stringify(value)} is not a secret the sweep can look for`);
    if (!this.#kinds.has(value)) this.#kinds.set(value, kind);
    return value;
  }

  /** Value and kind of each secret. */
  entries(): [value: string, kind: string][] {
    return [...this.#kinds];
  }

  /** How many secrets of each kind. */
  counts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const kind of this.#kinds.values()) counts[kind] = (counts[kind] ?? 0) + 1;
    return counts;
  }
}

/**
 * Each secret found in `text`, as it is or percent-encoded (in a URL or a form: Google's codes and refresh tokens
 * hold `/`), as `<kind> <value> in <where>`, except those `allowed` (an answer whose purpose is to hand it over).
 */
export function leaks(secrets: Secrets, where: string, text: string, allowed: ReadonlyMap<string, string> = new Map()): string[] {
  return secrets
    .entries()
    .filter(([value]) => !allowed.has(value) && (text.includes(value) || text.includes(encodeURIComponent(value))))
    .map(([value, kind]) => `${kind} ${value} in ${where}`);
}

/** What each sealed column holds. */
const SEALED_KINDS: Record<string, string> = {
  'connections.client_secret': 'connection client secret',
  'connected_accounts.access_token': 'provider access token',
  'connected_accounts.refresh_token': 'provider refresh token',
  'oauth_states.code_verifier': 'PKCE verifier',
  'oauth_states.state_value': 'OAuth state',
  'webhook_endpoints.secret': 'webhook signing secret',
  'webhook_endpoints.previous_secret': 'webhook signing secret',
};

/** The secrets in the store's sealed columns, opened (the PKCE verifier and state of a pending flow among them). */
export async function collectSealed(secrets: Secrets, db: TestDatabase, box: SecretBox): Promise<void> {
  for (const { table, key, columns } of SECRET_COLUMNS) {
    // What a one-time dashboard form made (an endpoint, a link), kept to show again: no secret of its own; the link
    // in it is collected from the link.
    if (table === 'dashboard_form_sends') continue;
    for (const row of await db.query(`SELECT ${key}, ${columns.join(', ')} FROM ${table}`)) {
      for (const column of columns) {
        const sealed = row[column];
        const kind = SEALED_KINDS[`${table}.${column}`];
        if (kind === undefined) throw new Error(`the sweep does not know what ${table}.${column} holds`);
        if (typeof sealed === 'string') secrets.add(kind, box.open(sealed, secretAad(table, String(row[key]), column)));
      }
    }
  }
}

/**
 * What the sandbox providers issued and were given, from their state file (which holds all of it, used codes,
 * refreshed and revoked tokens too): codes, access and refresh tokens, and the client secrets registered with them.
 */
export function collectIssuedBySandbox(secrets: Secrets, stateFile: string): void {
  const state = readStateFile(stateFile);
  if (state === null) throw new Error(`no sandbox state in ${stateFile}`);
  for (const code of state.grants.codes.keys()) secrets.add('provider authorization code', code);
  for (const token of state.grants.access.keys()) secrets.add('provider access token', token);
  for (const token of state.grants.refresh.keys()) secrets.add('provider refresh token', token);
  for (const client of state.grants.clients.values()) secrets.add('connection client secret', client.clientSecret);
}

/** One answer of the service, as received, and the secrets it may carry by design, each with the reason. */
export interface Exchange {
  request: string;
  status: number;
  headers: [name: string, value: string][];
  body: string;
  allowed: Map<string, string>;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, when it is JSON. */
  json: any;
  location: string | null;
  /** Marks `value` as carried by this answer by design, saying why. */
  allow(value: string, reason: string): void;
}

export interface SendOptions {
  /** An application or MCP bearer token. */
  token?: string;
  json?: unknown;
  form?: Record<string, string>;
  cookie?: string;
  headers?: Record<string, string>;
}

/** A client of the service that keeps every answer (`exchanges`), for the sweep of responses and URLs. */
export class Wire {
  readonly exchanges: Exchange[] = [];

  constructor(readonly base: string) {}

  /** `fetch` keeping the answer, for clients that take one (the MCP SDK's transport). */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    const text = await response.clone().text();
    this.#keep(`${init?.method ?? 'GET'} ${String(input instanceof Request ? input.url : input)}`, response, text);
    return response;
  };

  /** Marks `value` as carried by the last answer by design (one `fetch` made), saying why. */
  allowInLast(value: string, reason: string): void {
    this.exchanges.at(-1)!.allowed.set(value, reason);
  }

  async send(method: string, pathOrUrl: string, options: SendOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.cookie) headers.cookie = options.cookie;
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form !== undefined) {
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    const url = new URL(pathOrUrl, this.base).toString();
    const response = await fetch(url, { method, headers, redirect: 'manual', ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    const exchange = this.#keep(`${method} ${url}`, response, text);
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return {
      status: response.status,
      headers: response.headers,
      text,
      json,
      location: response.headers.get('location'),
      allow: (value, reason) => exchange.allowed.set(value, reason),
    };
  }

  #keep(request: string, response: Response, body: string): Exchange {
    const headers: [string, string][] = [];
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') headers.push([name, value]);
    });
    for (const cookie of response.headers.getSetCookie()) headers.push(['set-cookie', cookie]);
    const exchange: Exchange = { request, status: response.status, headers, body, allowed: new Map() };
    this.exchanges.push(exchange);
    return exchange;
  }
}

/** A browser over a {@link Wire}: one cookie jar, kept across its requests. */
export class Browser {
  cookie = '';

  constructor(private readonly wire: Wire) {}

  async get(pathOrUrl: string): Promise<Answer> {
    return this.#keep(await this.wire.send('GET', pathOrUrl, { cookie: this.cookie }));
  }

  async post(pathOrUrl: string, form: Record<string, string>): Promise<Answer> {
    return this.#keep(await this.wire.send('POST', pathOrUrl, { form, cookie: this.cookie, headers: { origin: this.wire.base } }));
  }

  #keep(answer: Answer): Answer {
    this.cookie = cookieFrom(answer.headers.getSetCookie(), this.cookie);
    return answer;
  }
}

/** The value of a hidden form field in a page. */
export function formValue(html: string, name: string): string {
  const value = new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1];
  if (value === undefined) throw new Error(`no field ${name} in the page`);
  return value;
}

/** Every cookie an answer set, by name. */
export function setCookies(answer: Answer): Map<string, string> {
  return new Map(answer.headers.getSetCookie().map((c) => {
    const pair = c.split(';')[0] ?? '';
    return [pair.slice(0, pair.indexOf('=')), decodeURIComponent(pair.slice(pair.indexOf('=') + 1))] as const;
  }));
}

/**
 * Every URL in an answer: its Location, the links and form targets of a page, and the URL-like strings of a JSON body
 * (a link, an authorization URL). HTML entities in attributes are undone.
 */
export function urlsIn(exchange: Exchange): string[] {
  const urls: string[] = [];
  for (const [name, value] of exchange.headers) if (name === 'location') urls.push(value);
  for (const match of exchange.body.matchAll(/\b(?:href|action|src)="([^"]*)"/g)) urls.push((match[1] ?? '').replace(/&amp;/g, '&').replace(/&#x3D;/g, '=').replace(/&#x2F;/g, '/'));
  const walk = (value: unknown): void => {
    if (typeof value === 'string' && /^(https?:\/\/|\/)/.test(value)) urls.push(value);
    else if (value && typeof value === 'object') for (const v of Object.values(value)) walk(v);
  };
  try {
    walk(JSON.parse(exchange.body));
  } catch {
    /* not JSON */
  }
  return urls;
}
