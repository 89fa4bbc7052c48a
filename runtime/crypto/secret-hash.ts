/**
 * Password-style hashing for the service's own application client secrets (they are verified, never read back, so
 * they are hashed rather than encrypted). scrypt with a random 16-byte salt; the parameters travel with the hash so
 * they can be raised later without invalidating old hashes.
 *
 * Format: `scrypt$<N>$<r>$<p>$<salt b64url>$<hash b64url>`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7914 (scrypt)
 */
import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const N = 16384;
const R = 8;
const P = 1;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** Caps what a stored hash may ask for, so a tampered row cannot make verification eat all memory. */
const MAX_N = 1 << 20;

function scryptAsync(secret: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Hashes a secret for storage (`AppClientRecord.secretHash`). */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await scryptAsync(secret, salt, HASH_BYTES, { N, r: R, p: P, maxmem: 64 * 1024 * 1024 });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** Checks a presented secret against a stored hash in constant time. Malformed hashes verify as false. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (![n, r, p].every((v) => Number.isInteger(v) && v > 0) || n > MAX_N || r > 32 || p > 16) return false;
  const salt = Buffer.from(parts[4] ?? '', 'base64url');
  const expected = Buffer.from(parts[5] ?? '', 'base64url');
  if (salt.length === 0 || expected.length < 16) return false;
  const actual = await scryptAsync(secret, salt, expected.length, { N: n, r, p, maxmem: 128 * r * n * 2 + 1024 * 1024 });
  return timingSafeEqual(actual, expected);
}

/**
 * SHA-256 hex of a high-entropy random value (OAuth state, link token, browser cookie): enough for lookup keys,
 * since these values are 128+ random bits and need no stretching.
 */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}
