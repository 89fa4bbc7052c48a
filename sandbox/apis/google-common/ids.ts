/** Identifiers shaped like Google's, so code that checks their form accepts them. */
import { randomBytes, randomInt } from 'node:crypto';

const BASE32HEX = '0123456789abcdefghijklmnopqrstuv';

/** A Calendar event id: lowercase base32hex (`[a-v0-9]`), 26 characters like Google's generated ones. */
export function base32hexId(length = 26): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += BASE32HEX[(bytes[i] as number) % 32];
  return out;
}

/** A Drive file id (spreadsheets, documents): 44 URL-safe characters. */
export function driveFileId(): string {
  return `1${randomBytes(33).toString('base64url').slice(0, 43)}`;
}

/** An opaque token (revision ids, page tokens' nonces). */
export function opaqueToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

/** A Meet code like `abc-defg-hij`. */
export function meetCode(): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const pick = (n: number): string => Array.from({ length: n }, () => letters[randomInt(26)]).join('');
  return `${pick(3)}-${pick(4)}-${pick(3)}`;
}
