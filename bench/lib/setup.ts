/**
 * One authorized sandbox user on a real store, for the figures that call tools. Reuses the runtime test harness
 * (sandbox + store + connector + browser-like consent) so that benchmarks and tests set up the same way; the HTTP
 * policy is the production default, not the tests' shortened one.
 */
import { got } from 'got';
import { Agent } from 'undici';
import { ACCEPT_ENCODING } from '../../runtime/http/decode.js';
import { startHarness, ENV, type Harness, type HarnessOptions } from '../../test/runtime/connector-harness.js';

export { ENV };

export interface BenchUser {
  harness: Harness;
  identifier: string;
  accountId: string;
  /** A contact created for the user; `crm_contact_get` of it is the measured call. */
  contactId: string;
  /** The upstream URL the measured tool call sends, for the direct baseline. */
  upstreamUrl: string;
  accessToken(): Promise<string>;
}

export async function startBenchUser(options: HarnessOptions = {}): Promise<BenchUser> {
  const harness = await startHarness({
    ...options,
    runtime: { http: {}, baseRetryDelayMs: undefined, ...options.runtime },
  });
  await harness.connection('crm');
  const identifier = 'bench-user';
  const account = await harness.authorize('crm', identifier);
  const created = await harness.env.executeTool({
    tool_name: 'crm_contact_create',
    identifier,
    tool_input: { email: 'bench@example.com', firstname: 'Bench' },
  });
  const contactId = (created.data as { id: string }).id;
  const upstreamUrl = `${harness.sandbox.endpoints('crm').apiBaseUrl}/crm/v3/objects/contacts/${contactId}`;
  return {
    harness,
    identifier,
    accountId: account.id,
    contactId,
    upstreamUrl,
    async accessToken() {
      const row = await harness.store.getAccount(ENV, account.id);
      if (!row?.tokens) throw new Error('bench account has no tokens');
      return row.tokens.accessToken;
    },
  };
}

/**
 * The baseline: the same upstream request sent directly with a bearer token through undici, the HTTP client the
 * executor sends with, on its own keep-alive pool, reading and parsing the JSON answer as the executor does.
 */
export function directCall(url: string, token: string): () => Promise<unknown> {
  const agent = new Agent({ connections: 256 });
  const { origin, pathname, search } = new URL(url);
  // The headers the executor sends for this tool (the connector's, the bearer token), so the request is the same.
  const headers = { accept: 'application/json', 'accept-encoding': ACCEPT_ENCODING, authorization: `Bearer ${token}` };
  return async () => {
    const res = await agent.request({ origin, path: `${pathname}${search}`, method: 'GET', headers });
    return JSON.parse(Buffer.from(await res.body.arrayBuffer()).toString('utf8')) as unknown;
  };
}

/**
 * The first baseline: the same request sent directly with got, which the executor used before undici
 * (docs/architecture.md). Measured for the record only; the figure with a goal compares like with like.
 */
export function gotDirectCall(url: string, token: string): () => Promise<unknown> {
  const client = got.extend({
    headers: { accept: 'application/json', 'accept-encoding': ACCEPT_ENCODING, authorization: `Bearer ${token}` },
    responseType: 'json',
    retry: { limit: 0 },
  });
  return () => client.get(url).json();
}
