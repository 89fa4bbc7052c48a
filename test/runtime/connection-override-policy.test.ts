import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Connector, EnvironmentScope } from '../../runtime/api.js';
import { overrideRefusal, readOverridePolicy, type ConnectionOverridePolicy } from '../../runtime/connection-override-policy.js';
import { createConnector } from '../../runtime/connector.js';
import { isConnectorError } from '../../runtime/errors.js';
import { readConfig } from '../../runtime/service/config.js';
import { BASE_URL, ENV, loadDefinitions, startHarness, type Harness } from './connector-harness.js';

const ANY: ConnectionOverridePolicy = { mode: 'any', allowedOrigins: [] };
const NONE: ConnectionOverridePolicy = { mode: 'none', allowedOrigins: [] };

describe('readOverridePolicy', () => {
  it('allows overrides in development and refuses them in production by default', () => {
    expect(readOverridePolicy({}, false)).toEqual(ANY);
    expect(readOverridePolicy({}, true)).toEqual(NONE);
    expect(readOverridePolicy({ AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES: '1' }, true)).toEqual(ANY);
    expect(readOverridePolicy({ AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES: '0' }, false)).toEqual(NONE);
  });

  it('reads a list of origins, and refuses anything that is not an origin', () => {
    expect(readOverridePolicy({ AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES: 'https://IdP.example.com/, http://10.0.0.5:8080' }, false)).toEqual({
      mode: 'allowlist',
      allowedOrigins: ['https://idp.example.com', 'http://10.0.0.5:8080'],
    });
    expect(() => readOverridePolicy({ AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES: 'https://idp.example.com/path' }, false)).toThrow(/AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES/);
    expect(() => readOverridePolicy({ AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES: 'maybe' }, false)).toThrow(/not valid: "maybe"/);
  });

  it('is part of the service config, a bad value a ConfigError', () => {
    expect(readConfig({}).connectionOverrides).toEqual(ANY);
    expect(() => readConfig({ AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES: 'ftp://x' })).toThrow(expect.objectContaining({ name: 'ConfigError' }));
  });
});

describe('overrideRefusal', () => {
  it.each([
    'http://169.254.169.254/latest/meta-data',
    'https://169.254.169.254/',
    'http://[::ffff:169.254.169.254]/',
    'https://[::ffff:a9fe:a9fe]/',
    'http://[fe80::1]/',
    'https://[febf::1]/',
    'http://0.0.0.0:8080/',
    'https://0.1.2.3/',
    'https://[::]/',
    'http://[fd00:ec2::254]/',
    'http://100.100.100.200/',
    'http://localhost.example.com/',
    'http://10.0.0.5/token',
    'http://internal.example.com/token',
    'http://192.168.1.1/',
    // IPv6 forms carrying an IPv4 address are judged as that address: NAT64, SIIT, IPv4-compatible, 6to4, Teredo.
    'http://[64:ff9b::a9fe:a9fe]/',
    'https://[64:ff9b::169.254.169.254]/',
    'https://[::ffff:0:a9fe:a9fe]/',
    'https://[::169.254.169.254]/',
    'https://[2002:a9fe:a9fe::]/',
    'https://[2001:0:4136:e378:8000:63bf:5601:5601]/',
    'http://[2001::f5ff:fffa]/token',
    'https://[64:ff9b::]/',
    'http://[64:ff9b::a00:5]/token',
    // Local-use NAT64: which IPv4 host it reaches depends on the deployment.
    'https://[64:ff9b:1::808:808]/',
  ])('mode any refuses %s', (url) => {
    expect(overrideRefusal(url, ANY)).not.toBeNull();
  });

  it.each([
    'https://idp.example.com/token',
    'http://127.0.0.1:4010/calendar',
    'http://127.1.2.3:4010/calendar',
    'http://localhost:9/x',
    'http://api.localhost:9/x',
    'http://localhost.:9/x',
    'http://[::1]:9/x',
    'http://[::ffff:127.0.0.1]:9/x',
    'https://10.0.0.5/token',
    'https://[fd00::1]/token',
    // 0fe8::1 and 0feb::1 are not link-local (fe80::/10); a pattern on the text once refused them.
    'https://[fe8::1]/token',
    'https://[feb::1]/token',
    'http://[64:ff9b::7f00:1]:9/x',
    'http://[2002:7f00:1::]:9/x',
    'https://[64:ff9b::808:808]/token',
    'https://[2002:808:808::]/token',
    'http://[::7f00:1]:9/x',
    'http://[2001::80ff:fffe]:9/x',
    'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/token',
  ])('mode any allows %s', (url) => {
    expect(overrideRefusal(url, ANY)).toBeNull();
  });

  it('names why: link-local and unspecified addresses never, http only to loopback', () => {
    expect(overrideRefusal('https://169.254.169.254/', ANY)).toBe('is not allowed: link-local and unspecified addresses are never override targets');
    expect(overrideRefusal('https://[::]/', ANY)).toBe('is not allowed: link-local and unspecified addresses are never override targets');
    expect(overrideRefusal('http://10.0.0.5/token', ANY)).toBe('must use https (http is allowed only to a loopback host)');
    expect(overrideRefusal('http://[64:ff9b::a9fe:a9fe]/', ANY)).toBe('is not allowed: link-local and unspecified addresses are never override targets');
    expect(overrideRefusal('https://[64:ff9b:1::a9fe:a9fe]/', ANY)).toMatch(/local-use NAT64 address \(64:ff9b:1::\/48\) may reach any IPv4 host/);
  });

  it('an allowlist allows exactly its origins; none allows nothing but its allowed origins; refused origins never', () => {
    const list: ConnectionOverridePolicy = { mode: 'allowlist', allowedOrigins: ['http://10.0.0.5:8080'] };
    expect(overrideRefusal('http://10.0.0.5:8080/oauth/token', list)).toBeNull();
    expect(overrideRefusal('http://10.0.0.5:8081/oauth/token', list)).toMatch(/not in AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES/);
    expect(overrideRefusal('https://idp.example.com/token', list)).not.toBeNull();
    expect(overrideRefusal('http://127.0.0.1:4010/x', NONE)).toMatch(/refuses connection overrides/);
    const sandboxed: ConnectionOverridePolicy = { ...NONE, allowedOrigins: ['http://127.0.0.1:4010'] };
    expect(overrideRefusal('http://127.0.0.1:4010/x', sandboxed)).toBeNull();
    expect(overrideRefusal('http://127.0.0.1:4011/x', sandboxed)).not.toBeNull();
    const control: ConnectionOverridePolicy = { ...ANY, allowedOrigins: ['http://127.0.0.1:4012'], refusedOrigins: ['http://127.0.0.1:4012'] };
    expect(overrideRefusal('http://127.0.0.1:4012/_sandbox/requests', control)).toMatch(/never a connection target/);
    // The control API listens on a loopback address: every other spelling of a loopback host at its port reaches it.
    for (const other of ['http://localhost:4012/x', 'http://api.localhost:4012/x', 'http://[::1]:4012/x', 'http://127.0.0.2:4012/x', 'http://[::ffff:127.0.0.1]:4012/x', 'https://localhost:4012/x']) {
      expect(overrideRefusal(other, control), other).toMatch(/never a connection target/);
    }
    expect(overrideRefusal('http://localhost:4013/x', control)).toBeNull();
  });
});

describe('connections and the override policy', () => {
  let h: Harness;
  const closers: (() => Promise<void>)[] = [];
  /** Another connector in this process, on the same store, with its own override policy. */
  const connectorUnder = async (connectionOverrides: ConnectionOverridePolicy): Promise<Connector> => {
    const other = await createConnector({ baseUrl: BASE_URL, store: h.store, definitions: await loadDefinitions(), connectionOverrides });
    closers.push(() => other.close());
    return other;
  };
  const under = async (policy: ConnectionOverridePolicy): Promise<EnvironmentScope> => (await connectorUnder(policy)).environment(ENV);
  let hits = 0;
  let server: http.Server;
  let internal: string;
  beforeAll(async () => {
    h = await startHarness();
    server = http.createServer((_req, res) => {
      hits += 1;
      res.setHeader('content-type', 'application/json');
      res.end('{"access_token":"stolen"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    internal = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await h.close();
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it('refuses creating a connection whose token URL is the metadata endpoint', async () => {
    const error = await (await under(ANY))
      .createConnection({ name: 'evil', connector: 'calendar', client_id: 'c', client_secret: 's', overrides: { tokenUrl: 'http://169.254.169.254/latest/meta-data/iam' } })
      .catch((e: unknown) => e);
    expect(isConnectorError(error) && error.code).toBe('invalid_input');
    expect(JSON.stringify((error as { details?: unknown }).details)).toContain('/overrides/tokenUrl');
    await expect(h.env.getConnection('evil')).rejects.toMatchObject({ code: 'connection_not_found' });
  });

  it('refuses every override when the policy is none, on create and update', async () => {
    const none = await under(NONE);
    await expect(
      none.createConnection({ name: 'loop', connector: 'crm', client_id: 'c', client_secret: 's', overrides: { apiBaseUrl: `${internal}/admin` } }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    await (await under(ANY)).createConnection({ name: 'loop', connector: 'crm', client_id: 'c', client_secret: 's' });
    await expect(none.updateConnection('loop', { overrides: { tokenUrl: `${internal}/token` } })).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('a stored override the policy no longer allows sends nothing: no token exchange, no proxy call', async () => {
    await h.connection('workspace', 'stored');
    await h.authorize('stored', 'pat');
    await h.env.updateConnection('stored', { overrides: { ...(await h.env.getConnection('stored')).overrides, apiBaseUrl: internal, tokenUrl: `${internal}/token` } });
    const strict = await connectorUnder(NONE);
    const env = strict.environment(ENV);
    hits = 0;
    await expect(env.proxy({ connection_name: 'stored', identifier: 'pat', method: 'GET', path: '/v1/users/me' })).rejects.toMatchObject({ code: 'invalid_request' });
    const { link } = await env.authorizationLink({ connection_name: 'stored', identifier: 'other' });
    await expect(strict.oauth.openLink(link.split('/').pop() as string)).rejects.toMatchObject({ code: 'invalid_request' });
    expect(hits).toBe(0);
    // Disconnecting still clears the tokens, without sending them to the refused revocation URL.
    const accounts = await env.listAccounts({ connection_name: 'stored' });
    const done = await env.disconnectAccount(accounts.find((a) => a.identifier === 'pat')!.id);
    expect(done.status).toBe('DISCONNECTED');
    expect(done.revocation).toEqual({ outcome: 'not_sent', provider_status: null });
    expect(hits).toBe(0);
  });

  it('two connectors in one process do not share a policy: each enforces its own, at once and in any order', async () => {
    await h.connection('crm', 'shared');
    await h.authorize('shared', 'sam');
    await h.env.updateConnection('shared', { overrides: { ...(await h.env.getConnection('shared')).overrides, apiBaseUrl: internal } });
    const strict = (await connectorUnder(NONE)).environment(ENV);
    const lax = (await connectorUnder(ANY)).environment(ENV);
    hits = 0;
    const call = (env: EnvironmentScope) => env.proxy({ connection_name: 'shared', identifier: 'sam', method: 'GET', path: '/crm/v3/owners' });
    const [refused, sent, alsoRefused] = await Promise.allSettled([call(strict), call(lax), call(strict)]);
    expect(refused).toMatchObject({ status: 'rejected', reason: { code: 'invalid_request' } });
    expect(alsoRefused).toMatchObject({ status: 'rejected', reason: { code: 'invalid_request' } });
    expect(sent).toMatchObject({ status: 'fulfilled', value: { status: 200 } });
    expect(hits).toBe(1);
    // The harness's own connector (the development default) still allows it after the strict one was made.
    await expect(call(h.env)).resolves.toMatchObject({ status: 200 });
    expect(hits).toBe(2);
  });
});
