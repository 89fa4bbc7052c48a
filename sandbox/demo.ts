/**
 * `npm run demo`: a guided tour of the whole flow against the sandbox, in this process, touching nothing of a
 * running `npm start` (own port, own temporary data directory). Exits non-zero if any step fails.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { consentThroughSandbox } from '../runtime/cli/consent.js';
import { createClient, type HttpClient } from '../runtime/client/index.js';
import { createConnector } from '../runtime/connector.js';
import { isConnectorError } from '../runtime/errors.js';
import { buildService } from '../runtime/service/build-service.js';
import { readConnectorConfig } from '../runtime/service/config.js';
import { withSandbox } from '../runtime/service/dev-sandbox.js';
import { createEnvironment } from '../runtime/service/environments.js';
import { freePort } from '../runtime/service/free-port.js';
import { registerWithSandbox, SANDBOX_PROVIDER } from '../runtime/service/sandbox-connections.js';
import { CONNECTOR_NAMES, type ConnectorName } from '../runtime/types.js';
import { startSandbox } from './start.js';

const USER = 'demo-user-1';
const SANDBOX_USER = 'ada@example.com';
const color = process.stdout.isTTY ? { ok: '\x1b[32m', bad: '\x1b[31m', dim: '\x1b[2m', bold: '\x1b[1m', off: '\x1b[0m' } : { ok: '', bad: '', dim: '', bold: '', off: '' };

/** One tool call per system, chosen to work on a fresh sandbox user. */
const TOOL_PER_SYSTEM: Record<ConnectorName, { tool: string; input: Record<string, unknown> }> = {
  workspace: { tool: 'workspace_search', input: { query: '', page_size: 5 } },
  calendar: { tool: 'calendar_list_calendars', input: { max_results: 5 } },
  crm: { tool: 'crm_contacts_list', input: { limit: 5 } },
  sheets: { tool: 'sheets_create_spreadsheet', input: { title: 'Demo budget' } },
  docs: { tool: 'docs_create_document', input: { title: 'Demo notes' } },
};

const TOTAL_STEPS = 7;

/** The tour's progress: numbered step headings, and each attempt's tick or cross, counted. */
class Steps {
  private shown = 0;
  failures = 0;

  step(title: string): void {
    this.shown += 1;
    console.log(`\n${color.bold}[${this.shown}/${TOTAL_STEPS}] ${title}${color.off}`);
  }

  async attempt<T>(label: string, run: () => Promise<T>, show?: (value: T) => string): Promise<T | undefined> {
    try {
      const value = await run();
      console.log(`  ${color.ok}✓${color.off} ${label}${show ? `${color.dim} — ${show(value)}${color.off}` : ''}`);
      return value;
    } catch (error) {
      this.failures += 1;
      const what = isConnectorError(error) ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error);
      console.log(`  ${color.bad}✗${color.off} ${label}: ${what}`);
      return undefined;
    }
  }
}

function summarize(data: unknown): string {
  const text = JSON.stringify(data) ?? '';
  return text.length > 110 ? `${text.slice(0, 107)}...` : text;
}

async function tour(steps: Steps, client: HttpClient, sandbox: Awaited<ReturnType<typeof startSandbox>>): Promise<void> {
  steps.step('Create one connection per system (own OAuth client each, pointed at the sandbox)');
  for (const name of CONNECTOR_NAMES) {
    const secret = `demo-${randomBytes(12).toString('hex')}`;
    await steps.attempt(`connection ${name}`, async () => {
      const view = await client.createConnection({ name, connector: name, client_id: `demo-${name}`, client_secret: secret, overrides: sandbox.endpoints(name) });
      registerWithSandbox(sandbox, view, secret);
      return view;
    }, (v) => `redirect URI ${v.redirect_uri}`);
  }

  steps.step(`Authorization links for user "${USER}", consent at each provider, callback`);
  for (const name of CONNECTOR_NAMES) {
    await steps.attempt(`${name}: link -> consent as ${SANDBOX_USER} -> callback`, async () => {
      const link = await client.authorizationLink({ connection_name: name, identifier: USER });
      const consent = await consentThroughSandbox(link.link, { user: SANDBOX_USER });
      if (consent.status !== 200) throw new Error(`callback answered ${consent.status}`);
      const account = await client.getAccount(link.connected_account_id);
      if (account.status !== 'ACTIVE') throw new Error(`account is ${account.status}`);
      return account;
    }, (a) => `account ${a.id} ${a.status}`);
  }

  steps.step('A tool per system');
  for (const name of CONNECTOR_NAMES) {
    const { tool, input } = TOOL_PER_SYSTEM[name];
    await steps.attempt(`${tool}(${JSON.stringify(input)})`, () => client.executeTool({ tool_name: tool, identifier: USER, tool_input: input }), (r) => summarize(r.data));
  }

  steps.step('A proxy request (the raw upstream API, same credentials)');
  await steps.attempt('GET /calendar/v3/users/me/calendarList', () =>
    client.proxy({ connection_name: 'calendar', identifier: USER, method: 'GET', path: '/calendar/v3/users/me/calendarList' }),
  (r) => `upstream ${r.status}, ${summarize(r.body)}`);

  steps.step('A refresh: the provider expires the access token; the next call refreshes it transparently');
  await steps.attempt('calendar_list_calendars after expiry', async () => {
    const before = sandbox.control.tokenRequestCount(SANDBOX_PROVIDER.calendar, 'refresh_token');
    sandbox.control.expireAccessTokens(SANDBOX_PROVIDER.calendar, SANDBOX_USER);
    await client.executeTool({ tool_name: 'calendar_list_calendars', identifier: USER, tool_input: {} });
    const refreshes = sandbox.control.tokenRequestCount(SANDBOX_PROVIDER.calendar, 'refresh_token') - before;
    if (refreshes !== 1) throw new Error(`expected one refresh, saw ${refreshes}`);
    return refreshes;
  }, () => 'one refresh_token request, call succeeded');

  steps.step('Invalid input is refused before anything reaches the provider');
  await steps.attempt('calendar_list_calendars({max_results: "lots"})', async () => {
    const error = await client.executeTool({ tool_name: 'calendar_list_calendars', identifier: USER, tool_input: { max_results: 'lots' } }).then(() => null, (e: unknown) => e);
    if (!isConnectorError(error) || error.code !== 'invalid_input') throw new Error('expected invalid_input');
    return error;
  }, (e) => `${e.code}: ${JSON.stringify(e.details)}`);

  steps.step('Disconnect: tokens revoked and deleted; calls now ask for a new authorization');
  await steps.attempt('disconnect the calendar account', async () => {
    const [account] = await client.listAccounts({ identifier: USER, connection_name: 'calendar' });
    if (!account) throw new Error('no account');
    const after = await client.disconnectAccount(account.id);
    const refused = await client.executeTool({ tool_name: 'calendar_list_calendars', connection_name: 'calendar', identifier: USER, tool_input: {} }).then(() => null, (e: unknown) => e);
    if (!isConnectorError(refused)) throw new Error('the call still worked');
    return `${after.status}; next call: ${refused.code}`;
  }, (s) => s);
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-connector-demo-'));
  const sandbox = await startSandbox();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const connectionOverrides = withSandbox(readConnectorConfig().connectionOverrides, sandbox);
  const connector = await createConnector({ baseUrl: url, dataDir, encryptionKeys: `k1:${randomBytes(32).toString('base64')}`, connectionOverrides });
  const app = await buildService({ connector, sandbox, logger: false });
  const steps = new Steps();
  try {
    await app.listen({ port, host: '127.0.0.1' });
    const env = await createEnvironment(connector.store, { name: 'demo' });
    console.log(`${color.bold}agent-connector demo${color.off}: service at ${url}, sandbox providers at ${sandbox.url}`);
    console.log(`${color.dim}environment ${env.environmentId}; the application below talks to the service over HTTP with its client credentials.${color.off}`);
    const client = createClient({ envUrl: url, clientId: env.clientId, clientSecret: env.clientSecret });
    await tour(steps, client, sandbox);
  } finally {
    await app.close();
    await connector.close();
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(steps.failures === 0 ? `\n${color.ok}Done: every step worked.${color.off}` : `\n${color.bad}${steps.failures} step(s) failed.${color.off}`);
  process.exit(steps.failures === 0 ? 0 : 1);
}

await main();
