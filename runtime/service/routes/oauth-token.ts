/**
 * `POST /oauth/token`: the client credentials grant, form or JSON, with the client authenticated either in the body
 * or with HTTP Basic. Errors use the OAuth error body (`{"error":"invalid_client"}`), not the service's, because OAuth
 * client libraries parse this shape.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.4
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2 (error response)
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppAuth } from '../app-auth.js';
import { isInvalidJsonBodyError } from '../json-body.js';

interface Deps {
  auth: AppAuth;
  /** The per-client-address budget for credential checks (rate-limits.ts); rejects with `rate_limited`. */
  checkCredentialRate(request: FastifyRequest): Promise<void>;
}

function oauthError(reply: FastifyReply, status: number, error: string, description: string): FastifyReply {
  if (status === 401) reply.header('www-authenticate', 'Basic realm="agent-connector"');
  return reply.code(status).header('cache-control', 'no-store').send({ error, error_description: description });
}

/** Client id and secret from `Authorization: Basic` (form-urlencoded halves, per RFC 6749 §2.3.1). */
function basicCredentials(header: string | undefined): { id: string; secret: string } | null {
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}

/**
 * A body that never reached the handler (bad JSON, unsupported media type, too large) is still an OAuth error
 * response, `invalid_request`, so OAuth client libraries can parse it. Anything else goes on to the service's handler.
 */
function bodyErrorHandler(error: FastifyError, _request: unknown, reply: FastifyReply): FastifyReply {
  const code = error.code ?? '';
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return oauthError(reply, 413, 'invalid_request', 'The request body is larger than the limit');
  // The parser's message gives the position and never the body (json-body.ts), so it can be repeated.
  if (isInvalidJsonBodyError(error)) return oauthError(reply, 400, 'invalid_request', error.message);
  if (code.startsWith('FST_ERR_CTP_') || (error.statusCode === 400 && error instanceof SyntaxError)) {
    return oauthError(reply, 400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded or JSON');
  }
  throw error;
}

export function registerOAuthTokenRoute(app: FastifyInstance, deps: Deps): void {
  app.post('/oauth/token', { errorHandler: bodyErrorHandler }, async (request, reply) => {
    // fastify's root text/plain parser hands over a string: saying grant_type is missing would send the caller
    // looking at the wrong thing.
    if (typeof request.body === 'string' || Buffer.isBuffer(request.body)) {
      const sent = request.headers['content-type']?.split(';')[0]?.trim().slice(0, 100);
      return oauthError(reply, 400, 'invalid_request', `The request body must be application/x-www-form-urlencoded or JSON (got ${sent})`);
    }
    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
    const basic = basicCredentials(request.headers.authorization);
    const clientId = basic?.id ?? body.client_id;
    const clientSecret = basic?.secret ?? body.client_secret;
    if (body.grant_type !== 'client_credentials') {
      return body.grant_type === undefined
        ? oauthError(reply, 400, 'invalid_request', 'grant_type is required')
        : oauthError(reply, 400, 'unsupported_grant_type', 'Only grant_type=client_credentials is supported');
    }
    if (typeof clientId !== 'string' || typeof clientSecret !== 'string' || !clientId || !clientSecret) {
      return oauthError(reply, 401, 'invalid_client', 'Client authentication failed');
    }
    await deps.checkCredentialRate(request);
    const claims = await deps.auth.authenticateClient(clientId, clientSecret);
    if (!claims) return oauthError(reply, 401, 'invalid_client', 'Client authentication failed');
    const token = await deps.auth.issueAccessToken(claims);
    return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(token);
  });
}
