/**
 * The execution history, the per-call log line, the executor's span and the call metrics: one place that sees
 * every tool call and proxy request start and end.
 *
 * A call runs with an {@link ExecutionScope}, handed to it explicitly (the executor puts it in the call's context),
 * which the shared send path fills in as it learns them: the connection the call resolved to, each upstream
 * answer's status and attempt count. (It is not an AsyncLocalStorage: on Node 20 one turns on promise hooks for
 * every promise in the process, which cost the service more CPU per call than the history itself: docs/benchmarks.md.) When the call has its answer, the record is queued and written in the background, in batches
 * ({@link BATCH_DELAY_MS} after the first queued record, or at {@link BATCH_MAX} records): one commit per call
 * (SQLite syncs each commit to disk) held up a thousand concurrent calls past their upstream deadline. A slow or
 * failed write never delays or fails a call (a failure is logged); `drain()` writes what is queued before the
 * store closes.
 */
import { performance } from 'node:perf_hooks';
import { v7 as timeOrderedUuid, validate as isUuid } from 'uuid';
import { SpanStatusCode } from '@opentelemetry/api';
import { isConnectorError } from '../errors.js';
import type { RuntimeLogger } from '../executor/context.js';
import type { ExecutionRecord, Store } from '../store/types.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { recordedMessage } from './error-message.js';
import { redactInput } from './redact-input.js';

export interface ExecutionSettings {
  /** Keep a record of each call in the store (default true). */
  record: boolean;
  /** Keep each call's input, redacted (default false). */
  captureInputs: boolean;
  /** Input fields (at any depth) redacted besides those whose names say they hold a secret. */
  redactFields: readonly string[];
}

/** How long a queued record waits for others to share its write. */
export const BATCH_DELAY_MS = 50;
/** A batch this large is written at once. */
export const BATCH_MAX = 500;

export const DEFAULT_EXECUTION_SETTINGS: ExecutionSettings = { record: true, captureInputs: false, redactFields: [] };

/** What the caller knows of a call before it runs. */
export interface ExecutionStart {
  kind: 'tool' | 'proxy';
  environmentId: string;
  connectionName: string | null;
  identifier: string | null;
  /** The tool's name, or the proxy's method and path template. */
  operation: string;
  /** The input as it would be captured (before redaction); called only when inputs are captured or the call failed. */
  input: () => unknown;
}

/** Whether `id` can be an execution's: a UUID (version 7, see {@link ExecutionScope.id}; version 4 in older rows). */
export function isExecutionId(id: string): boolean {
  return isUuid(id);
}

/** What the send path learns about the call in progress. */
export class ExecutionScope {
  /**
   * A UUID, version 7 (RFC 9562): time-ordered, so history rows are appended to the store's indexes instead of
   * landing on random pages (half the CPU per written row, measured: docs/benchmarks.md).
   */
  readonly id = timeOrderedUuid();
  connectionId: string | null = null;
  connectionName: string | null;
  attempts = 0;
  upstreamStatus: number | null = null;

  constructor(start: ExecutionStart) {
    this.connectionName = start.connectionName;
  }

  noteTarget(connection: { id: string; name: string }): void {
    this.connectionId = connection.id;
    this.connectionName = connection.name;
  }

  noteResponse(res: { status: number; attempts: number }): void {
    this.attempts += res.attempts;
    this.upstreamStatus = res.status;
  }
}

/**
 * Where a call's log line goes: given, it receives the call's fields (the HTTP service puts them into its one line
 * for the request); absent, the tracker logs a line of its own.
 */
export type ExecutionLogSink = (fields: Record<string, unknown>) => void;

/** The fields of a record as a log line and a trace show them (snake_case, as the API does). */
export function executionLogFields(rec: ExecutionRecord): Record<string, unknown> {
  return {
    execution_id: rec.id,
    environment_id: rec.environmentId,
    kind: rec.kind,
    operation: rec.operation,
    connection_id: rec.connectionId,
    connection_name: rec.connectionName,
    identifier: rec.identifier,
    outcome: rec.outcome,
    error_code: rec.errorCode,
    upstream_status: rec.upstreamStatus,
    attempts: rec.attempts,
    duration_ms: rec.durationMs,
  };
}

export interface ExecutionTrackerDeps {
  store: Pick<Store, 'recordExecutions'>;
  telemetry: Telemetry;
  now: () => number;
  logger?: RuntimeLogger;
  settings?: Partial<ExecutionSettings>;
}

export class ExecutionTracker {
  private queue: ExecutionRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** The batch writes, one after the other. */
  private writing: Promise<void> = Promise.resolve();
  private readonly settings: ExecutionSettings;
  private readonly redactFields: ReadonlySet<string>;

  constructor(private readonly deps: ExecutionTrackerDeps) {
    this.settings = { ...DEFAULT_EXECUTION_SETTINGS, ...deps.settings };
    this.redactFields = new Set(this.settings.redactFields);
  }

  /** Runs one call: `fn` gets the call's scope to fill in; when it ends, the record is traced, counted, logged and queued. */
  async run<T>(start: ExecutionStart, fn: (scope: ExecutionScope) => Promise<T>, log?: ExecutionLogSink): Promise<T> {
    const scope = new ExecutionScope(start);
    const startedAt = new Date(this.deps.now()).toISOString();
    const began = performance.now();
    const { telemetry } = this.deps;
    const spanName = start.kind === 'tool' ? `execute_tool ${start.operation}` : `proxy ${start.operation}`;
    return telemetry.tracer.startActiveSpan(spanName, { attributes: { 'agent_connector.execution.id': scope.id, 'agent_connector.operation': start.operation } }, async (span) => {
      let errorCode: string | null = null;
      let errorMessage: string | null = null;
      let errorStatus: number | null = null;
      try {
        return await fn(scope);
      } catch (error) {
        errorCode = isConnectorError(error) ? error.code : 'internal';
        // What the caller is told; a bug's own message never is (it is answered as `internal` without it), nor kept.
        if (isConnectorError(error)) errorMessage = recordedMessage(error.message, start.input(), this.redactFields);
        const status = isConnectorError(error) ? (error.details as { status?: unknown } | undefined)?.status : undefined;
        if (typeof status === 'number') errorStatus = status;
        // The caller can look the failure up by the id a success would have returned (a bug stays `internal`, unnamed).
        throw isConnectorError(error) ? error.forExecution(scope.id) : error;
      } finally {
        const rec: ExecutionRecord = {
          id: scope.id,
          environmentId: start.environmentId,
          startedAt,
          kind: start.kind,
          connectionId: scope.connectionId,
          connectionName: scope.connectionName,
          identifier: start.identifier,
          operation: start.operation,
          outcome: errorCode === null ? 'success' : 'error',
          errorCode,
          errorMessage,
          upstreamStatus: scope.upstreamStatus ?? errorStatus,
          attempts: scope.attempts,
          durationMs: Math.round(performance.now() - began),
          input: this.settings.captureInputs ? redactInput(start.input(), this.redactFields) : null,
        };
        this.finish(rec, span, log);
      }
    });
  }

  /** Writes what is queued and waits for every write in flight (before the store closes). */
  drain(): Promise<void> {
    return this.flush();
  }

  private enqueue(rec: ExecutionRecord): void {
    this.queue.push(rec);
    if (this.queue.length >= BATCH_MAX) {
      void this.flush();
    } else if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), BATCH_DELAY_MS);
      // Queued records must not keep a process alive that has nothing else to do; close() drains them.
      this.timer.unref();
    }
  }

  private flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queue;
    this.queue = [];
    if (batch.length > 0) {
      this.writing = this.writing.then(() =>
        this.deps.store.recordExecutions(batch).catch((error: unknown) => {
          this.deps.logger?.warn({ records: batch.length, err: error instanceof Error ? error.message : String(error) }, 'execution records could not be written');
        }),
      );
    }
    return this.writing;
  }

  private finish(rec: ExecutionRecord, span: import('@opentelemetry/api').Span, log: ExecutionLogSink | undefined): void {
    const { telemetry, logger } = this.deps;
    const metricAttributes = { 'agent_connector.kind': rec.kind, 'agent_connector.operation': rec.operation, 'agent_connector.outcome': rec.outcome };
    span.setAttributes({
      'agent_connector.kind': rec.kind,
      'agent_connector.outcome': rec.outcome,
      'agent_connector.attempts': rec.attempts,
      ...(rec.connectionName === null ? {} : { 'agent_connector.connection': rec.connectionName }),
      ...(rec.upstreamStatus === null ? {} : { 'agent_connector.upstream_status': rec.upstreamStatus }),
    });
    if (rec.errorCode !== null) {
      span.setAttribute('error.type', rec.errorCode);
      span.setStatus({ code: SpanStatusCode.ERROR });
      telemetry.errors.add(1, { ...metricAttributes, 'error.type': rec.errorCode });
    }
    span.end();
    telemetry.calls.add(1, metricAttributes);
    telemetry.duration.record(rec.durationMs, metricAttributes);

    if (log !== undefined) log(executionLogFields(rec));
    else logger?.info(executionLogFields(rec), rec.outcome === 'success' ? 'execution succeeded' : 'execution failed');

    if (this.settings.record) this.enqueue(rec);
  }
}
