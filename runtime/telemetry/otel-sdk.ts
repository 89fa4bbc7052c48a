/**
 * Starts the OpenTelemetry Node SDK when, and only when, the standard variables ask for an exporter: the SDK's own
 * default is to export over OTLP to localhost, which a service must not do unasked. Everything else (endpoint,
 * headers, protocol, service name, sampling, export interval) is the SDK's own reading of the `OTEL_*` variables.
 * @see https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/
 */
import { NodeSDK } from '@opentelemetry/sdk-node';

const ASKING = ['OTEL_TRACES_EXPORTER', 'OTEL_METRICS_EXPORTER', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'];

/** Whether `env` asks for telemetry export: an exporter other than `none`, or an OTLP endpoint; never with OTEL_SDK_DISABLED. */
export function telemetryRequested(env: NodeJS.ProcessEnv): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false;
  return ASKING.some((name) => {
    const value = (env[name] ?? '').trim();
    return value !== '' && value.toLowerCase() !== 'none';
  });
}

export interface RunningTelemetry {
  /** Flushes what is buffered and stops exporting. */
  shutdown(): Promise<void>;
}

/**
 * Registers the SDK's tracer and meter providers globally (the one place the OpenTelemetry API looks), or does
 * nothing and returns null when `env` does not ask for export. Call it before creating the connector: meters are
 * taken from the provider registered at that time. The SDK reads its settings from `process.env`.
 */
export function startOpenTelemetry(env: NodeJS.ProcessEnv): RunningTelemetry | null {
  if (!telemetryRequested(env)) return null;
  const sdk = new NodeSDK({ serviceName: env.OTEL_SERVICE_NAME ?? 'agent-connector' });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
