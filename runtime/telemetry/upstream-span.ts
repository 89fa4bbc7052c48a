/**
 * One CLIENT span per upstream attempt (a retried request has several, numbered by `http.request.resend_count`).
 * Only the method, host, port and status are recorded: the path and query may hold ids or keys, headers a token.
 * @see https://opentelemetry.io/docs/specs/semconv/http/http-spans/#http-client-span
 */
import { SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';

export async function traceAttempt<T extends { status: number }>(tracer: Tracer, method: string, url: string, attemptNo: number, run: () => Promise<T>): Promise<T> {
  const { hostname, port, protocol } = new URL(url);
  return tracer.startActiveSpan(
    `HTTP ${method}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'http.request.method': method,
        'server.address': hostname,
        'server.port': Number(port) || (protocol === 'https:' ? 443 : 80),
        ...(attemptNo > 1 ? { 'http.request.resend_count': attemptNo - 1 } : {}),
      },
    },
    async (span) => {
      try {
        const res = await run();
        span.setAttribute('http.response.status_code', res.status);
        if (res.status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
        return res;
      } catch (error) {
        // The error's code only: its message may quote the request.
        span.setAttribute('error.type', (error as { code?: string }).code ?? 'network_error');
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
