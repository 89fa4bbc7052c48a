/**
 * Traces and metrics through `@opentelemetry/api`. The API is a no-op until an SDK registers providers (see
 * `otel-sdk.ts`, which `npm start` runs only when the standard `OTEL_*` variables ask for an exporter), so the
 * runtime always instruments and pays nearly nothing when nobody listens.
 *
 * Spans: the service's request span (SERVER) -> `execute_tool <name>` / `proxy <method> <template>` (INTERNAL) ->
 * one `HTTP <method>` span per upstream attempt (CLIENT), and `oauth.refresh` (INTERNAL) around a token refresh with
 * its own attempt spans. Attributes carry names, codes, hosts and statuses only: never a URL path or query (ids,
 * possibly keys), a header, a body or an end-user identifier.
 * @see https://opentelemetry.io/docs/specs/semconv/http/http-spans/
 */
import { metrics, trace, type Counter, type Histogram, type Meter, type Tracer } from '@opentelemetry/api';

export const INSTRUMENTATION_NAME = 'agent-connector';

/** The instruments one connector uses, made once per instance from the providers registered at that time. */
export class Telemetry {
  readonly tracer: Tracer;
  readonly calls: Counter;
  readonly errors: Counter;
  readonly duration: Histogram;
  readonly refreshes: Counter;

  constructor(version?: string) {
    this.tracer = trace.getTracer(INSTRUMENTATION_NAME, version);
    const meter: Meter = metrics.getMeter(INSTRUMENTATION_NAME, version);
    this.calls = meter.createCounter('agent_connector.executions', { description: 'Tool calls and proxy requests.' });
    this.errors = meter.createCounter('agent_connector.execution.errors', { description: 'Tool calls and proxy requests that ended in an error, by error code.' });
    this.duration = meter.createHistogram('agent_connector.execution.duration', { unit: 'ms', description: 'Duration of tool calls and proxy requests.' });
    this.refreshes = meter.createCounter('agent_connector.token.refreshes', { description: 'Access token refreshes, by outcome.' });
  }
}
