/**
 * The one list of field names that hold a secret (a credential, a grant, a code, a session), as they appear in
 * request and response bodies, query strings, headers (lower-cased, as Node gives them) and log objects. Each place
 * that hides secrets derives what it needs from it, so a name added here is hidden everywhere:
 * - the service's log redaction (`service/logging.ts`): a pino path per name, at the top level and one level down;
 * - captured tool and proxy inputs (`executions/redact-input.ts`): {@link isSecretLooking}, at any depth, and the
 *   values of those fields wherever a failed call's recorded message quotes them (`executions/error-message.ts`);
 * - the sandbox's request records (`sandbox/core/recorder.ts`): {@link isSecretField} on bodies, query strings and
 *   headers.
 */

/**
 * Words that make a name secret wherever they appear in it, in any case, `_` or `-` or nothing between their parts:
 * `db_password`, `X-Api-Key`, `privateKey`, `pageToken`. Each is a secret field name in its own right too.
 */
const SECRET_WORDS = ['secret', 'password', 'passwd', 'token', 'authorization', 'cookie', 'credential', 'api_key', 'private_key'] as const;

/** Request and response headers that carry a credential or a session. */
export const SECRET_HEADERS: readonly string[] = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key'];

export const SECRET_FIELDS: readonly string[] = [
  ...new Set([
    ...SECRET_WORDS,
    ...SECRET_HEADERS,
    // OAuth 2.0 and OpenID Connect parameters and token responses (RFC 6749, RFC 7521, RFC 7636).
    'client_secret',
    'client_assertion',
    'assertion',
    'code',
    'code_verifier',
    'state',
    'access_token',
    'refresh_token',
    'id_token',
    // The same as this codebase's own records spell them.
    'clientSecret',
    'accessToken',
    'refreshToken',
  ]),
];

const EXACT: ReadonlySet<string> = new Set(SECRET_FIELDS);
const WORD = new RegExp(SECRET_WORDS.map((w) => w.replace(/_/g, '[_-]?')).join('|'), 'i');

/** Whether a field named `name` is one of {@link SECRET_FIELDS}, exactly as listed. */
export function isSecretField(name: string): boolean {
  return EXACT.has(name);
}

/**
 * Whether a field named `name` says it holds a secret: one of {@link SECRET_FIELDS}, or a name containing a secret
 * word. For names chosen by callers (tool inputs, proxy bodies); records and logs, whose names the service and the
 * fakes choose, match the list exactly (a page token is no secret to them, and pino matches paths, not patterns).
 */
export function isSecretLooking(name: string): boolean {
  return EXACT.has(name) || WORD.test(name);
}
