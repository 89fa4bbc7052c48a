/**
 * What the service records about each request: one log line when it has been answered (fastify's log controller
 * wrote two, "incoming request" and "request completed"; {@link OneLinePerRequest} writes only the second, with the
 * request's method and URL and the execution fields of the tool call or proxy request it ran, if any: a route
 * hands {@link callOptions} to the call, which gives those fields back instead of logging a line of its own); and an
 * OpenTelemetry SERVER span that the executor's span is a child of.
 *
 * A client that closes its connection before it is answered gets no answer, and the response's `finish`, which runs
 * `onResponse` and fastify's completed line, never comes: the response's `close` then ends the span (status ERROR,
 * `error.type` `client_closed`) and writes the request's one line, "request closed before it was answered". The call
 * itself runs on and is recorded in the execution history as usual; that line has no execution fields, since the call
 * has not finished when it is written.
 *
 * The span becomes the active context in `preHandler`, the last hook before the handler: that hook's callback runs
 * the handler synchronously, so everything the handler awaits inherits it (a context set in `onRequest` would be
 * lost across the body parser's stream events).
 * @see https://opentelemetry.io/docs/specs/semconv/http/http-spans/#http-server
 */
import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { CallOptions } from '../api.js';
import { INSTRUMENTATION_NAME } from '../telemetry/telemetry.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's SERVER span. */
    otelSpan: Span | null;
    /** The execution fields of the call this request ran, for its log line. */
    executionLog: Record<string, unknown> | null;
  }
}

/** The options a route passes to `executeTool` / `proxy` so that the call's fields go into this request's log line. */
export function callOptions(request: FastifyRequest): CallOptions {
  return { logExecution: (fields) => (request.executionLog = fields) };
}

export function registerRequestObservability(app: FastifyInstance): void {
  const tracer = trace.getTracer(INSTRUMENTATION_NAME);
  app.decorateRequest('otelSpan', null);
  app.decorateRequest('executionLog', null);
  app.addHook('onRequest', (request, reply, done) => {
    const route = request.routeOptions.url;
    request.otelSpan = tracer.startSpan(route === undefined ? request.method : `${request.method} ${route}`, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': request.method, ...(route === undefined ? {} : { 'http.route': route }) },
    });
    reply.raw.once('close', () => {
      if (reply.raw.writableFinished) return;
      const span = request.otelSpan;
      if (span !== null) {
        span.setAttribute('error.type', 'client_closed');
        span.setStatus({ code: SpanStatusCode.ERROR, message: 'the client closed the connection before it was answered' });
        span.end();
        request.otelSpan = null;
      }
      request.log.info({ req: request, responseTime: Math.round(reply.elapsedTime * 10) / 10 }, 'request closed before it was answered');
    });
    done();
  });
  app.addHook('preHandler', (request, _reply, done) => {
    const active = request.otelSpan === null ? context.active() : trace.setSpan(context.active(), request.otelSpan);
    context.with(active, done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const span = request.otelSpan;
    if (span !== null) {
      request.otelSpan = null;
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    done();
  });
}

/** fastify's request log lines, as one line per request written when it has been answered. */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {
    // The completed line carries the request too; one line per request is the rule.
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const fields = request.executionLog;
    const line = { req: request, res: reply, responseTime: Math.round(reply.elapsedTime * 10) / 10, ...(fields ? { execution: fields } : {}) };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
