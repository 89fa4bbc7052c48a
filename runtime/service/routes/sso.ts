/**
 * The browser side of the authorization flow.
 *
 * `GET /sso/v1/connect/{link_token}` shows a page with a **Continue** button and changes nothing: link scanners, chat
 * unfurlers and mail security gateways fetch links (GET or HEAD) before the person does, and the first fetch used to
 * bind the link to the scanner. The page sets a one-time value (a SameSite=Strict cookie, echoed by the form), and
 * `POST /sso/v1/connect/{link_token}` with that value is the real open: it binds the link to this browser (the link
 * cookie, refused from any other browser, see `oauth/link-binding.ts`), sets the browser-binding cookie of the flow
 * (HttpOnly, SameSite=Lax so it survives the provider's top-level redirect back, path `/sso/`) and redirects (303) to
 * the provider. Both are rate-limited per client address.
 * `GET /sso/v1/oauth/{connection_id}/callback` finishes it and shows the success or failure page (or redirects to the
 * application's allowlisted URL). Failures are pages, not JSON: a person is looking at them.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Connector } from '../../api.js';
import { ConnectorError, wholeRetryAfterSeconds } from '../../errors.js';
import { randomToken } from '../../oauth/random.js';
import { safeEqual } from '../app-auth.js';
import { LINK_TTL_MS } from '../../oauth/flow.js';
import { sha256Hex } from '../../oauth/random.js';
import { toConnectorError } from '../errors.js';
import { PAGE_HEADERS, renderPage } from '../views.js';

export const BROWSER_COOKIE = 'ac_oauth_browser';

/**
 * The flow's binding cookie is named after its state (`ac_oauth_browser_<16 hex of SHA-256(state)>`), so two links
 * opened in one browser keep one cookie each and neither overwrites the other; the callback finds its own from the
 * `state` it carries. The digest, not the state, is in the name: a cookie name is not a secret.
 */
export function browserCookieName(state: string): string {
  return `${BROWSER_COOKIE}_${sha256Hex(state).slice(0, 16)}`;
}
const COOKIE_PATH = '/sso/';
/** The link's browser binding: one value per browser, reused for every link it opens, kept as long as a link lives. */
export const LINK_COOKIE = 'ac_oauth_link';
const LINK_COOKIE_PATH = '/sso/v1/connect/';
/** The one-time value the Continue page sets and its form echoes: only a browser that loaded the page can bind. */
export const CONTINUE_COOKIE = 'ac_oauth_continue';
const CONTINUE_TTL_S = 30 * 60;


const FAILURE_HEADINGS: Partial<Record<string, string>> = {
  authorization_failed: 'Authorization failed',
  not_found: 'This link is not valid',
  connection_not_found: 'This connection no longer exists',
};

function failurePage(reply: FastifyReply, error: ConnectorError): FastifyReply {
  const status = error.status >= 500 ? error.status : error.code === 'authorization_failed' ? 400 : error.status;
  const retryAfter = wholeRetryAfterSeconds(error);
  if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
  return reply
    .code(status)
    .headers(PAGE_HEADERS)
    .send(
      renderPage('oauth-result', {
        title: 'Authorization failed',
        success: false,
        heading: FAILURE_HEADINGS[error.code] ?? 'Authorization failed',
        message: error.code === 'internal' ? 'Something went wrong on our side.' : error.message,
        code: error.code,
        requestId: reply.request.id,
      }),
    );
}

export interface SsoDeps {
  connector: Connector;
  /** The per-client-address budget for link opens (rate-limits.ts); rejects with `rate_limited`. */
  checkLinkOpenRate(request: FastifyRequest): Promise<void>;
}

export function registerSsoRoutes(app: FastifyInstance, deps: SsoDeps): void {
  const secure = deps.connector.baseUrl.startsWith('https:');

  app.get<{ Params: { link_token: string } }>('/sso/v1/connect/:link_token', async (request, reply) => {
    try {
      await deps.checkLinkOpenRate(request);
      const link = await deps.connector.oauth.inspectLink(request.params.link_token, request.cookies[LINK_COOKIE]);
      const nonce = randomToken();
      reply.setCookie(CONTINUE_COOKIE, nonce, { path: LINK_COOKIE_PATH, httpOnly: true, sameSite: 'strict', secure, maxAge: CONTINUE_TTL_S });
      return reply
        .headers(PAGE_HEADERS)
        .header('referrer-policy', 'no-referrer')
        .send(
          renderPage('link-continue', {
            title: 'Connect your account',
            connectorName: link.displayName,
            connectionName: link.connectionName,
            action: `${LINK_COOKIE_PATH}${encodeURIComponent(request.params.link_token)}`,
            nonce,
          }),
        );
    } catch (error) {
      return failurePage(reply, toConnectorError(error, request));
    }
  });

  app.post<{ Params: { link_token: string }; Body: Record<string, string | undefined> | undefined }>('/sso/v1/connect/:link_token', async (request, reply) => {
    try {
      await deps.checkLinkOpenRate(request);
      const sent = typeof request.body?.continue === 'string' ? request.body.continue : '';
      const expected = request.cookies[CONTINUE_COOKIE] ?? '';
      if (sent === '' || expected === '' || !safeEqual(sent, expected)) {
        throw new ConnectorError('authorization_failed', 'Open the link again and press Continue (the page expired, or cookies are blocked in this browser).');
      }
      reply.clearCookie(CONTINUE_COOKIE, { path: LINK_COOKIE_PATH, httpOnly: true, sameSite: 'strict', secure });
      const opened = await deps.connector.oauth.openLink(request.params.link_token, request.cookies[LINK_COOKIE]);
      reply.setCookie(LINK_COOKIE, opened.linkBinding, { path: LINK_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure, maxAge: LINK_TTL_MS / 1000 });
      const state = new URL(opened.redirectTo).searchParams.get('state') ?? '';
      reply.setCookie(browserCookieName(state), opened.browserCookie, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure, maxAge: 600 });
      return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').redirect(opened.redirectTo, 303);
    } catch (error) {
      return failurePage(reply, toConnectorError(error, request));
    }
  });

  app.get<{ Params: { connection_id: string } }>('/sso/v1/oauth/:connection_id/callback', async (request, reply) => {
    const rawQuery = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    try {
      const query = new URLSearchParams(rawQuery);
      const cookieName = browserCookieName(query.get('state') ?? '');
      // The unsuffixed name: flows opened before per-flow names (at most STATE_TTL_MS old) still finish.
      const legacy = request.cookies[cookieName] === undefined;
      const result = await deps.connector.oauth.callback(request.params.connection_id, query, request.cookies[legacy ? BROWSER_COOKIE : cookieName]);
      reply.clearCookie(legacy ? BROWSER_COOKIE : cookieName, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure });
      if (result.redirectTo) return reply.header('referrer-policy', 'no-referrer').redirect(result.redirectTo, 302);
      return reply
        .headers(PAGE_HEADERS)
        .send(
          renderPage('oauth-result', {
            title: 'Connected',
            success: true,
            heading: 'Connected',
            // The system as the link's page named it ("HubSpot"), not the connector's id (`crm`), which users do not know.
            message: `Your ${result.displayName} account is connected (${result.account.connection_name}).`,
          }),
        );
    } catch (error) {
      return failurePage(reply, toConnectorError(error, request));
    }
  });
}
