/**
 * Checks a connection's create/update input before it reaches the store. Every problem is reported at once, as
 * `invalid_input` violations with JSON pointers, like a tool input.
 */
import type { CreateConnectionInput, UpdateConnectionInput } from './api.js';
import { overrideRefusal, type ConnectionOverridePolicy } from './connection-override-policy.js';
import { ConnectorError } from './errors.js';
import { hasNoOAuthScopes, noScopesReason } from './oauth/no-scopes.js';
import { INPUT_LIMITS } from './validation/input-limits.js';
import { textProblem } from './validation/text-input.js';
import type { ConnectionOverrides, ConnectionPatch, ConnectionRecord } from './store/types.js';
import { CONNECTOR_NAMES, type ConnectorDefinition, type ConnectorName, type Violation } from './types.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** RFC 6749 §3.3 scope-token characters (printable ASCII but space, `"` and `\\`). */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
const OVERRIDE_KEYS = ['authorizationUrl', 'tokenUrl', 'revocationUrl', 'apiBaseUrl'] as const;

function isHttpUrl(value: unknown, allowQuery: boolean): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    // Credentials in a URL end up in logs; a fragment never reaches a server.
    if (url.username !== '' || url.password !== '' || url.hash !== '') return false;
    return allowQuery || url.search === '';
  } catch {
    return false;
  }
}

function nonEmptyString(value: unknown, max: number): boolean {
  return typeof value === 'string' && value.trim() !== '' && value.length <= max;
}

export function checkConnectionInput(
  input: CreateConnectionInput | UpdateConnectionInput,
  mode: 'create' | 'update',
  connectorFor: (name: ConnectorName) => ConnectorDefinition,
  overridePolicy: ConnectionOverridePolicy,
  existing?: Pick<ConnectionRecord, 'connector' | 'clientId'>,
): ConnectionPatch {
  const violations: Violation[] = [];
  const bad = (pointer: string, message: string, keyword: string): void => {
    violations.push({ pointer, message, keyword });
  };
  if (input === null || typeof input !== 'object') {
    throw new ConnectorError('invalid_input', 'The connection must be an object.', { details: { violations: [{ pointer: '', message: 'the connection must be an object', keyword: 'type' }] } });
  }
  const patch: ConnectionPatch = {};
  const create = mode === 'create';
  const connector = create ? (input as CreateConnectionInput).connector : existing?.connector;
  if (create && !CONNECTOR_NAMES.includes(connector as ConnectorName)) bad('/connector', `connector must be one of ${CONNECTOR_NAMES.join(', ')}`, 'enum');
  if ((input as { connector?: unknown }).connector !== undefined && !create && (input as { connector?: unknown }).connector !== existing?.connector) {
    bad('/connector', 'connector cannot be changed; create a new connection', 'readOnly');
  }

  if (create || input.name !== undefined) {
    if (typeof input.name === 'string' && NAME.test(input.name)) patch.name = input.name;
    else bad('/name', 'name must be 1-64 letters, digits, "_", "-" or ".", starting with a letter or digit', 'pattern');
  }
  if (create || input.client_id !== undefined) {
    if (nonEmptyString(input.client_id, INPUT_LIMITS.clientId) && textProblem(input.client_id as string) === null) patch.clientId = input.client_id as string;
    else bad('/client_id', `client_id must be a non-empty string of at most ${INPUT_LIMITS.clientId} characters, without control characters`, 'maxLength');
  }
  if (create || input.client_secret !== undefined) {
    if (nonEmptyString(input.client_secret, INPUT_LIMITS.clientSecret) && textProblem(input.client_secret as string) === null) patch.clientSecret = input.client_secret as string;
    else bad('/client_secret', `client_secret must be a non-empty string of at most ${INPUT_LIMITS.clientSecret} characters, without control characters`, 'maxLength');
  }
  // A secret belongs to its client: a new client id with the old secret would fail at the provider's token endpoint
  // (invalid_client) at the first authorization or refresh, long after the change.
  if (!create && patch.clientId !== undefined && patch.clientId !== existing?.clientId && input.client_secret === undefined) {
    bad('/client_secret', 'client_secret is required when client_id changes: the stored secret belongs to the old client', 'required');
  }
  if (input.scopes !== undefined) {
    if (Array.isArray(input.scopes) && input.scopes.length > INPUT_LIMITS.scopes) bad('/scopes', `scopes must have at most ${INPUT_LIMITS.scopes} items`, 'maxItems');
    else if (Array.isArray(input.scopes) && input.scopes.every((s) => typeof s === 'string' && s.length <= INPUT_LIMITS.scope && SCOPE_TOKEN.test(s))) {
      // A scope for a provider without any would be sent on an authorize URL that defines no scope parameter, and
      // recorded as the account's grant (the token response names none): shown, and believed, though it allowed nothing.
      const definition = CONNECTOR_NAMES.includes(connector as ConnectorName) ? connectorFor(connector as ConnectorName) : undefined;
      if (input.scopes.length > 0 && definition !== undefined && hasNoOAuthScopes(definition.oauth)) bad('/scopes', `scopes cannot be set: ${noScopesReason(definition)}`, 'forbidden');
      else patch.scopes = [...input.scopes];
    } else bad('/scopes', `scopes must be an array of scope strings of printable ASCII without spaces, each at most ${INPUT_LIMITS.scope} characters`, 'items');
  }
  if (input.overrides !== undefined) {
    const overrides = input.overrides as Record<string, unknown>;
    if (overrides === null || typeof overrides !== 'object' || Array.isArray(overrides)) bad('/overrides', 'overrides must be an object', 'type');
    else {
      const out: ConnectionOverrides = {};
      for (const [key, value] of Object.entries(overrides)) {
        if (!(OVERRIDE_KEYS as readonly string[]).includes(key)) bad(`/overrides/${key}`, `overrides may only set ${OVERRIDE_KEYS.join(', ')}`, 'additionalProperties');
        else if (typeof value === 'string' && value.length > INPUT_LIMITS.url) bad(`/overrides/${key}`, `overrides.${key} must be at most ${INPUT_LIMITS.url} characters`, 'maxLength');
        else if (!isHttpUrl(value, false)) bad(`/overrides/${key}`, `overrides.${key} must be an http(s) URL without credentials, query or fragment`, 'format');
        else {
          // The service sends the client secret and users' tokens to these URLs: see connection-override-policy.ts.
          const refusal = overrideRefusal(value as string, overridePolicy);
          if (refusal !== null) bad(`/overrides/${key}`, `overrides.${key} ${refusal}`, 'format');
          else out[key as (typeof OVERRIDE_KEYS)[number]] = value as string;
        }
      }
      patch.overrides = out;
    }
  }
  if (input.allowed_redirect_urls !== undefined) {
    const urls = input.allowed_redirect_urls;
    if (Array.isArray(urls) && urls.length > INPUT_LIMITS.redirectUrls) bad('/allowed_redirect_urls', `allowed_redirect_urls must have at most ${INPUT_LIMITS.redirectUrls} items`, 'maxItems');
    else if (Array.isArray(urls) && urls.every((u) => typeof u === 'string' && u.length <= INPUT_LIMITS.url && isHttpUrl(u, true))) patch.allowedRedirectUrls = [...urls];
    else bad('/allowed_redirect_urls', `allowed_redirect_urls must be an array of absolute http(s) URLs of at most ${INPUT_LIMITS.url} characters, without credentials or fragment`, 'format');
  }
  if (violations.length > 0) {
    throw new ConnectorError('invalid_input', `Invalid connection: ${violations.map((v) => v.message).join('; ')}`, { details: { violations } });
  }
  if (create) connectorFor(connector as ConnectorName);
  return patch;
}
