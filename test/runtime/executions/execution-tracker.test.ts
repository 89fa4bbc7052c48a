import { describe, expect, it } from 'vitest';
import { ConnectorError } from '../../../runtime/errors.js';
import { proxyStart } from '../../../runtime/executions/execution-start.js';
import { BATCH_DELAY_MS, ExecutionTracker, type ExecutionStart } from '../../../runtime/executions/execution-tracker.js';
import { JsonText } from '../../../runtime/proxy/json-text.js';
import type { ExecutionRecord } from '../../../runtime/store/types.js';
import { Telemetry } from '../../../runtime/telemetry/telemetry.js';

const start: ExecutionStart = { kind: 'tool', environmentId: 'env_a', connectionName: 'crm', identifier: 'u1', operation: 'crm_contacts_list', input: () => ({ limit: 5 }) };

function logger() {
  const lines: { level: string; obj: object; msg?: string }[] = [];
  const at = (level: string) => (obj: object, msg?: string) => void lines.push({ level, obj, ...(msg ? { msg } : {}) });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

describe('ExecutionTracker', () => {
  it('answers before the records are written, in one batch, and a failed write is logged, not thrown', async () => {
    const log = logger();
    let release!: () => void;
    const batches: (readonly ExecutionRecord[])[] = [];
    const store = {
      recordExecutions: (recs: readonly ExecutionRecord[]) => {
        batches.push(recs);
        return new Promise<void>((_resolve, reject) => {
          release = () => reject(new Error('database is locked'));
        });
      },
    };
    const tracker = new ExecutionTracker({ store, telemetry: new Telemetry(), now: Date.now, logger: log });
    const answers = await Promise.all([1, 2, 3].map((n) => tracker.run(start, async () => n)));
    expect(answers).toEqual([1, 2, 3]);
    // The answers are out; the write waits for others to join its batch.
    expect(batches).toHaveLength(0);
    await new Promise((r) => setTimeout(r, BATCH_DELAY_MS + 20));
    expect(batches.map((b) => b.length)).toEqual([3]);
    release();
    await tracker.drain();
    expect(log.lines.map((l) => `${l.level} ${l.msg}`)).toEqual([
      'info execution succeeded',
      'info execution succeeded',
      'info execution succeeded',
      'warn execution records could not be written',
    ]);
  });

  it('gives each call a time-ordered id (UUID version 7), so history rows append in call order', async () => {
    const tracker = new ExecutionTracker({ store: { recordExecutions: async () => undefined }, telemetry: new Telemetry(), now: Date.now });
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) await tracker.run(start, async (scope) => void ids.push(scope.id));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('records the error code and rethrows, with what the call noted on its scope', async () => {
    const written: ExecutionRecord[] = [];
    const tracker = new ExecutionTracker({ store: { recordExecutions: async (recs) => void written.push(...recs) }, telemetry: new Telemetry(), now: () => Date.UTC(2026, 0, 1) });
    const failure = Object.assign(new Error('nope'), { code: 'x' });
    await expect(
      tracker.run(start, async (scope) => {
        scope.noteTarget({ id: 'con_1', name: 'crm' });
        scope.noteResponse({ status: 503, attempts: 3 });
        throw failure;
      }),
    ).rejects.toBe(failure);
    await tracker.drain();
    // A bug's own message is never the caller's, so it is not kept either.
    expect(written[0]).toMatchObject({ outcome: 'error', errorCode: 'internal', errorMessage: null, connectionId: 'con_1', upstreamStatus: 503, attempts: 3, startedAt: '2026-01-01T00:00:00.000Z', input: null });
  });

  it("names the record on a catalogue error: a copy per call, so one error failing two calls at once names each call's own", async () => {
    const written: ExecutionRecord[] = [];
    const tracker = new ExecutionTracker({ store: { recordExecutions: async (recs) => void written.push(...recs) }, telemetry: new Telemetry(), now: Date.now });
    // One refusal shared by two calls, as a single-flight token refresh's is.
    const shared = new ConnectorError('upstream_rate_limited', 'slow down', { retryAfterSeconds: 7, details: { status: 429 }, cause: new Error('upstream') });
    const failures = await Promise.all([1, 2].map(() => tracker.run(start, async () => Promise.reject(shared)).catch((error: unknown) => error as ConnectorError)));
    await tracker.drain();
    expect(failures.map((f) => f.executionId)).toEqual(written.map((r) => r.id));
    expect(new Set(failures.map((f) => f.executionId)).size).toBe(2);
    for (const f of failures) {
      expect(f).not.toBe(shared);
      expect(f).toBeInstanceOf(ConnectorError);
      expect(f).toMatchObject({ code: 'upstream_rate_limited', message: 'slow down', status: 429, retryAfterSeconds: 7, details: { status: 429 }, cause: shared.cause });
      expect(f.toJSON()).toEqual({ code: 'upstream_rate_limited', message: 'slow down', details: { status: 429 }, retry_after_seconds: 7, execution_id: f.executionId });
    }
    expect(shared.executionId).toBeUndefined();
    expect(shared.toJSON()).not.toHaveProperty('execution_id');
  });

  it("keeps a failed call's message as its caller got it, none on success", async () => {
    const written: ExecutionRecord[] = [];
    const tracker = new ExecutionTracker({ store: { recordExecutions: async (recs) => void written.push(...recs) }, telemetry: new Telemetry(), now: Date.now });
    const refusal = new ConnectorError('invalid_input', 'Invalid input for crm_contacts_list: limit must be <= 100');
    const caught = await tracker.run(start, async () => Promise.reject(refusal)).catch((error: unknown) => error as ConnectorError);
    await tracker.run(start, async () => 1);
    await tracker.drain();
    expect(written.map((r) => r.errorMessage)).toEqual([caught.message, null]);
    expect(caught.message).toBe('Invalid input for crm_contacts_list: limit must be <= 100');
  });

  it('takes out of the message every value input capture would redact, with capture off too, before clipping it as an error body is', async () => {
    const written: ExecutionRecord[] = [];
    const tracker = new ExecutionTracker({ store: { recordExecutions: async (recs) => void written.push(...recs) }, telemetry: new Telemetry(), now: Date.now, settings: { redactFields: ['phone'] } });
    const input = { page_token: 'pt-0123456789abcdef', contact: { phone: '+33 6 12 34 56 78', name: 'Ana Lima' }, filters: [{ api_key: 98765432100 }] };
    const quoting = `page_token "pt-0123456789abcdef" is stale; phone "+33 6 12 34 56 78" (${JSON.stringify(JSON.stringify('+33 6 12 34 56 78'))}) refused for Ana Lima; api_key 98765432100 unknown`;
    const fail = (message: string) => tracker.run({ ...start, input: () => input }, async () => Promise.reject(new ConnectorError('invalid_input', message))).catch(() => undefined);
    await fail(quoting);
    // A message over the error bodies' 2,000 characters is cut at a word break, after the redaction: a value across
    // the cut leaves none of its characters behind.
    await fail(`${'word '.repeat(397)}+33 6 12 34 56 78 and more`);
    await tracker.drain();
    expect(written[0]!.errorMessage).toBe('page_token "[redacted]" is stale; phone "[redacted]" ("\\"[redacted]\\"") refused for Ana Lima; api_key [redacted] unknown');
    expect(written[0]!.input).toBeNull();
    expect(written[1]!.errorMessage).toBe(`${'word '.repeat(397)}[redacted] and…`);
    expect(written[1]!.errorMessage).not.toContain('+33');
  });

  it("takes a secret field's value of any length out of the message, where it stands as a word of its own", async () => {
    const written: ExecutionRecord[] = [];
    const tracker = new ExecutionTracker({ store: { recordExecutions: async (recs) => void written.push(...recs) }, telemetry: new Telemetry(), now: Date.now, settings: { redactFields: ['pin'] } });
    // Short values (under the 8 characters an upstream token redaction needs) that a refusal may quote: a password,
    // a PIN given as a number, a one-letter code. Inside a longer word or number they are someone else's text.
    const input = { password: 'hunter2', account: { pin: 4821 }, code: 'Q', api_key: '' };
    const message = 'password "hunter2" is too short (\\"hunter2\\"); pin 4821 refused; code Q unknown; hunter2x, 48210 and Quota stay';
    await tracker.run({ ...start, input: () => input }, async () => Promise.reject(new ConnectorError('invalid_input', message))).catch(() => undefined);
    await tracker.drain();
    expect(written[0]!.errorMessage).toBe('password "[redacted]" is too short (\\"[redacted]\\"); pin [redacted] refused; code [redacted] unknown; hunter2x, 48210 and Quota stay');
  });

  it('keeps a proxy body it cannot read as fields (text of any other type, a bare string) as [redacted], and takes it out of the message', async () => {
    const written: ExecutionRecord[] = [];
    const tracker = new ExecutionTracker({ store: { recordExecutions: async (recs) => void written.push(...recs) }, telemetry: new Telemetry(), now: Date.now, settings: { captureInputs: true } });
    const text = 'client_secret: s3cr3t-0123456789';
    // Each with the text the upstream quotes back in its refusal.
    const bodies: [Record<string, string> | undefined, unknown, string][] = [
      [{ 'content-type': 'text/plain' }, text, text],
      [{ 'Content-Type': 'application/xml' }, `<secret>${text}</secret>`, `<secret>${text}</secret>`],
      [undefined, text, text],
      [{ 'content-type': 'application/json' }, `not JSON ${text}`, `not JSON ${text}`],
      [undefined, new JsonText(JSON.stringify(text)), text],
    ];
    for (const [headers, body, quoted] of bodies) {
      const input = { connection_name: 'crm', identifier: 'u1', method: 'POST', path: '/v1/echo', ...(headers ? { headers } : {}), body };
      await tracker.run(proxyStart('env_a', input), async () => Promise.reject(new ConnectorError('upstream_error', `The upstream refused: ${quoted}`))).catch(() => undefined);
    }
    await tracker.drain();
    expect(written).toHaveLength(bodies.length);
    for (const rec of written) {
      expect(rec.input).toEqual({ method: 'POST', path: '/v1/echo', query: null, body: '[redacted]' });
      expect(rec.errorMessage).toBe('The upstream refused: [redacted]');
    }
  });

  it('keeps nothing when recording is off, and hands the fields to the log sink of the call instead of its own line', async () => {
    const log = logger();
    const written: ExecutionRecord[] = [];
    const tracker = new ExecutionTracker({ store: { recordExecutions: async (recs) => void written.push(...recs) }, telemetry: new Telemetry(), now: Date.now, logger: log, settings: { record: false } });
    let fields: Record<string, unknown> | undefined;
    await tracker.run(start, async () => 1, (f) => (fields = f));
    await new Promise((r) => setImmediate(r));
    await tracker.drain();
    expect(written).toEqual([]);
    expect(log.lines).toEqual([]);
    expect(fields).toMatchObject({ operation: 'crm_contacts_list', outcome: 'success', identifier: 'u1' });
  });
});
