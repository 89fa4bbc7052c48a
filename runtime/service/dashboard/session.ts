/**
 * Dashboard sessions: an HttpOnly cookie holding a signed session token (environment, client id, CSRF value).
 * Every state-changing form carries the session's CSRF value; sign-in, which has no session yet, checks that the
 * form was posted from this origin.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConnectorError } from '../../errors.js';
import { safeEqual, SESSION_TTL_SECONDS, type AppAuth, type SessionClaims } from '../app-auth.js';

export const SESSION_COOKIE = 'ac_session';
const COOKIE_PATH = '/dashboard';

export async function readSession(auth: AppAuth, request: FastifyRequest): Promise<SessionClaims | null> {
  const token = request.cookies[SESSION_COOKIE];
  return token ? auth.verifySession(token) : null;
}

export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure, maxAge: SESSION_TTL_SECONDS });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure });
}

/** Refuses a form whose `_csrf` field does not match the session's. */
export function checkCsrf(session: SessionClaims, body: unknown): void {
  const sent = body && typeof body === 'object' ? (body as Record<string, unknown>)._csrf : undefined;
  if (typeof sent !== 'string' || !safeEqual(sent, session.csrf)) {
    throw new ConnectorError('unauthorized', 'The form expired or did not come from this dashboard; reload the page and try again');
  }
}

/**
 * For sign-in (a login-CSRF would sign the victim into the attacker's environment): when the browser says where the
 * form came from, it must be the service's public origin (`publicOrigin`, from the configured base URL). Not the
 * `Host` header: a reverse proxy may rewrite it to the internal address, and it is whatever the client sent anyway.
 * `Sec-Fetch-Site` covers a browser that leaves `Origin` out: only a form on this origin (`same-origin`) or a
 * typed/bookmarked request (`none`) may sign in; `same-site` is a sibling subdomain.
 * @see https://www.w3.org/TR/fetch-metadata/
 * @see https://www.rfc-editor.org/rfc/rfc6454#section-7
 */
export function checkSameOrigin(request: FastifyRequest, publicOrigin: string): void {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') {
    throw new ConnectorError('unauthorized', 'Sign-in must be posted from the dashboard page');
  }
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return;
  let sent: string;
  try {
    sent = new URL(origin).origin;
  } catch {
    throw new ConnectorError('unauthorized', 'Sign-in must be posted from the dashboard page');
  }
  if (sent !== publicOrigin) throw new ConnectorError('unauthorized', 'Sign-in must be posted from the dashboard page');
}
