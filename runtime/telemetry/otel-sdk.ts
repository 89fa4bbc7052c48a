/**
 * Starts the OpenTelemetry Node SDK when, and only when, the configuration says the standard variables ask for an
 * exporter (`TelemetryConfig.enabled`, decided and checked in runtime/service/config.ts): the SDK's own default is to
 * export over OTLP to localhost, which a service must not do unasked. Everything else (endpoint, headers, protocol,
 * sampling, export interval) is the SDK's own reading of the `OTEL_*` variables.
 * @see https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/
 */
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { TelemetryConfig } from '../service/config.js';

export interface RunningTelemetry {
  /** Flushes what is buffered and stops exporting. */
  shutdown(): Promise<void>;
}

/**
 * Registers the SDK's tracer and meter providers globally (the one place the OpenTelemetry API looks), or does
 * nothing and returns null when telemetry is off. Call it before creating the connector: meters are taken from the
 * provider registered at that time. The SDK reads its own settings from `process.env` (it takes no other
 * environment), so the configuration that decided this must have been read from `process.env` too, as `start` does.
 */
export function startOpenTelemetry(config: TelemetryConfig): RunningTelemetry | null {
  if (!config.enabled) return null;
  const sdk = new NodeSDK({ serviceName: config.serviceName });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
