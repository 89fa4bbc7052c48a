import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ConnectorName } from '../../runtime/types.js';
import { googleOAuth } from '../oauth/google.js';
import { hubspotOAuth } from '../oauth/hubspot.js';
import { notionOAuth } from '../oauth/notion.js';
import type { OAuthContext, OAuthRequest, OAuthResponse } from '../oauth/context.js';
import type { OAuthProvider, SandboxControl, SandboxEndpoints, SandboxService } from '../types.js';
import type { ApiGateway } from './api-gateway.js';
import { handleControl } from './control-http.js';
import type { FaultTable } from './faults.js';
import { lowerHeaders, queryRecord, readBody, sendHtml, sendJson, sleep } from './http.js';
import type { RequestRecorder } from './recorder.js';
import { route } from './services.js';
import secureJson from 'secure-json-parse';

export interface ServerDeps {
  gateway: ApiGateway;
  oauth: OAuthContext;
  control: SandboxControl;
  faults: FaultTable;
  recorder: RequestRecorder;
  endpoints(c: ConnectorName): SandboxEndpoints;
  now(): number;
}

const OAUTH_ROUTERS: Record<OAuthProvider, (ctx: OAuthContext, req: OAuthRequest) => OAuthResponse | null> = {
  notion: notionOAuth,
  google: googleOAuth,
  hubspot: hubspotOAuth,
};

/** The sandbox's one request handler: dispatch by prefix, record every fake-provider request. */
export function createRequestHandler(deps: ServerDeps) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      await handle(deps, req, res);
    } catch (err) {
      if (!res.headersSent) sendJson(res, 500, { error: 'sandbox_error', message: (err as Error).message });
      else res.end();
    }
  };
}

async function handle(deps: ServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox.local');
  const method = (req.method ?? 'GET').toUpperCase();
  const r = route(url.pathname);
  const rawBody = await readBody(req);
  if (!r) {
    sendJson(res, 404, { error: 'not_found', message: `The sandbox has no route ${url.pathname}` });
    return;
  }
  if (r.kind === 'control') {
    const out = handleControl(deps.control, deps.endpoints, method, r.path, url.searchParams, rawBody);
    sendJson(res, out.status, out.body);
    return;
  }
  const headers = lowerHeaders(req);
  const record = (service: SandboxService, path: string, status: number, body: unknown, unmodelled?: true) =>
    deps.recorder.add({ service, method, path, query: queryRecord(url.searchParams), headers, body, status, at: deps.now(), ...(unmodelled ? { unmodelled } : {}) });

  if (r.kind === 'api') {
    const response = await deps.gateway.handle({ service: r.service, method, path: r.path, query: url.searchParams, headers, rawBody });
    record(r.service, r.path, response.status, parseForRecord(rawBody, headers['content-type']), response.unmodelled);
    sendJson(res, response.status, response.body, response.headers ?? {});
    return;
  }

  const oauthReq: OAuthRequest = {
    provider: r.provider,
    method,
    path: r.path,
    rawUrl: url.pathname + url.search,
    query: url.searchParams,
    headers,
    rawBody,
  };
  let out: OAuthResponse | null;
  const isMachineEndpoint = !/\/(authorize|auth)$/.test(r.path);
  const fault = deps.faults.get(r.service);
  if (isMachineEndpoint && fault?.latencyMs) await sleep(fault.latencyMs);
  const injected = isMachineEndpoint ? deps.faults.takeFailure(r.service) : undefined;
  if (injected) {
    out = {
      kind: 'json',
      status: injected.status,
      body: { error: injected.status >= 500 ? 'temporarily_unavailable' : 'invalid_request', error_description: 'Injected fault.' },
      ...(injected.retryAfterSeconds !== undefined ? { headers: { 'retry-after': String(injected.retryAfterSeconds) } } : {}),
    };
  } else {
    out = OAUTH_ROUTERS[r.provider](deps.oauth, oauthReq);
  }
  out ??= { kind: 'json', status: 404, body: { error: 'not_found', error_description: `No OAuth endpoint ${r.path}` } };
  const status = out.kind === 'redirect' ? 302 : out.status;
  record(r.service, r.path, status, parseForRecord(rawBody, headers['content-type']));
  switch (out.kind) {
    case 'json':
      sendJson(res, out.status, out.body, { 'cache-control': 'no-store', ...(out.headers ?? {}) });
      return;
    case 'html':
      sendHtml(res, out.status, out.html);
      return;
    case 'redirect':
      res.writeHead(302, { location: out.location, 'cache-control': 'no-store' });
      res.end();
      return;
    case 'empty':
      res.writeHead(out.status);
      res.end();
      return;
  }
}

function parseForRecord(rawBody: string, contentType: string | undefined): unknown {
  if (rawBody === '') return undefined;
  if ((contentType ?? '').startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(rawBody));
  try {
    return secureJson.parse(rawBody, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    return rawBody;
  }
}
