/**
 * Helpers for the security tests: an upstream of our own (a local server that can echo what it received), and an
 * account connected through the real flow (link -> sandbox consent -> callback) on a connection whose API base is
 * that upstream.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { ConnectionView } from '../../../runtime/api.js';
import { consentThroughSandbox, continueLink } from '../../../runtime/cli/consent.js';
import { registerWithSandbox } from '../../../runtime/service/sandbox-connections.js';
import type { ConnectorName } from '../../../runtime/types.js';
import type { Harness, TestEnv } from '../harness.js';

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface Upstream {
  url: string;
  received: Received[];
  /** How the next requests are answered (default: 200 `{"ok":true}`). */
  respond: (req: Received, res: ServerResponse) => void;
  close(): Promise<void>;
}

export async function startUpstream(): Promise<Upstream> {
  const upstream: Upstream = {
    url: '',
    received: [],
    respond: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      upstream.received.push(got);
      upstream.respond(got, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return upstream;
}

/**
 * A `connector` connection (calendar unless said) whose OAuth is the sandbox's and whose API base is `apiBaseUrl`,
 * with `identifier` connected.
 */
export async function connectThrough(
  h: Harness,
  env: TestEnv,
  apiBaseUrl: string,
  identifier = 'user-1',
  connector: ConnectorName = 'calendar',
): Promise<ConnectionView> {
  const token = await h.token(env);
  const secret = `secret-${randomBytes(8).toString('hex')}`;
  const name = `${connector}-${randomBytes(4).toString('hex')}`;
  const made = await h.call('POST', '/api/v1/connections', {
    token,
    body: { name, connector, client_id: `client-${name}`, client_secret: secret, overrides: { ...h.sandbox.endpoints(connector), apiBaseUrl } },
  });
  expect(made.status).toBe(201);
  registerWithSandbox(h.sandbox, made.body as ConnectionView, secret);
  const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: name, identifier } });
  expect(link.status).toBe(200);
  expect((await consentThroughSandbox(link.body.link, { user: `${identifier}@example.com` })).status).toBe(200);
  return made.body as ConnectionView;
}

/** Opens an authorization link as a browser would (Continue page, then Continue); the provider URL and the cookies. */
export const openLinkInBrowser = continueLink;
