/** The `oauth.refresh` span around one token refresh (its token request's attempt spans are its children), and the refresh counter. */
import { SpanStatusCode } from '@opentelemetry/api';
import { isConnectorError } from '../errors.js';
import type { AuthTarget } from '../oauth/refresh.js';
import type { Telemetry } from './telemetry.js';

export function traceRefresh<T>(telemetry: Telemetry, target: AuthTarget, run: () => Promise<T>): Promise<T> {
  const attributes = { 'agent_connector.connector': target.connector.name, 'agent_connector.connection': target.connection.name };
  return telemetry.tracer.startActiveSpan('oauth.refresh', { attributes }, async (span) => {
    try {
      const out = await run();
      telemetry.refreshes.add(1, { ...attributes, outcome: 'success' });
      return out;
    } catch (error) {
      const code = isConnectorError(error) ? error.code : 'internal';
      span.setAttribute('error.type', code);
      span.setStatus({ code: SpanStatusCode.ERROR });
      telemetry.refreshes.add(1, { ...attributes, outcome: 'error', 'error.type': code });
      throw error;
    } finally {
      span.end();
    }
  });
}
