/**
 * Authenticated encryption of secrets at rest: AES-256-GCM, a fresh random 96-bit nonce per write, and additional
 * authenticated data (AAD) naming the record, so a ciphertext copied to another row or column fails to decrypt.
 *
 * Sealed format (ASCII, safe in a TEXT column): `v1.<kid>.<nonce b64url>.<ciphertext||tag b64url>`.
 *
 * @see https://nvlpubs.nist.gov/nistpubs/Legacy/SP/nistspecialpublication800-38d.pdf (GCM, 96-bit IVs)
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Keyring } from './keyring.js';

const VERSION = 'v1';
const NONCE_BYTES = 12;
/** base64url length of the nonce. */
const NONCE_CHARS = 16;
const TAG_BYTES = 16;

/**
 * Thrown when a sealed value cannot be opened. The message names the record (table, column, row id) and the reason,
 * never the plaintext, the ciphertext or a key.
 */
export class SecretDecryptError extends Error {
  readonly code = 'secret_decrypt_failed';
  constructor(readonly aad: string, reason: string) {
    super(`cannot decrypt secret for ${aad}: ${reason}`);
    this.name = 'SecretDecryptError';
  }
}

/**
 * The AAD for one secret: `table|rowId|column`. Binding the row id is what makes a ciphertext moved to another row
 * unreadable; binding the column stops a refresh token being served as an access token.
 */
export function secretAad(table: string, rowId: string, column: string): string {
  return `${table}|${rowId}|${column}`;
}

/** Encrypts and decrypts with a keyring: writes always use the current key, reads use the key the value names. */
export class SecretBox {
  readonly #keyring: Keyring;
  readonly #currentPrefix: string;

  /**
   * No cache of opened values here: which values to keep, and for how long, is the caller's policy (the executor's
   * lookup cache keeps whole account records for a second).
   */
  constructor(keyring: Keyring) {
    this.#keyring = keyring;
    this.#currentPrefix = `${VERSION}.${keyring.current.kid}.`;
  }

  get keyring(): Keyring {
    return this.#keyring;
  }

  /** The prefix every value sealed with the current key starts with (`v1.<kid>.`); the store uses it in SQL. */
  get currentPrefix(): string {
    return this.#currentPrefix;
  }

  seal(plaintext: string, aad: string): string {
    const { kid, key } = this.#keyring.current;
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${kid}.${nonce.toString('base64url')}.${body.toString('base64url')}`;
  }

  open(sealed: string, aad: string): string {
    const parts = sealed.split('.');
    if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretDecryptError(aad, 'not a sealed value (unknown format)');
    const [, kid, nonce, body] = parts as [string, string, string, string];
    const entry = this.#keyring.get(kid);
    if (!entry) throw new SecretDecryptError(aad, `key id "${kid}" is not in the keyring`);
    if (nonce.length !== NONCE_CHARS) throw new SecretDecryptError(aad, 'truncated value');
    // A 12-byte nonce is exactly 16 base64 characters (no padding), so nonce and body decode as one buffer.
    const raw = Buffer.from(nonce + body, 'base64url');
    if (raw.length < NONCE_BYTES + TAG_BYTES) throw new SecretDecryptError(aad, 'truncated value');
    let plaintext: string;
    try {
      const decipher = createDecipheriv('aes-256-gcm', entry.key, raw.subarray(0, NONCE_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      plaintext = Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      // The underlying error says only "Unsupported state or unable to authenticate data"; ours says where.
      throw new SecretDecryptError(aad, `authentication failed with key "${kid}" (wrong key, or the value belongs to another record)`);
    }
    return plaintext;
  }

  /** The key id a sealed value was written with, or null if it is not a sealed value. */
  static kidOf(sealed: string): string | null {
    const parts = sealed.split('.');
    return parts.length === 4 && parts[0] === VERSION ? (parts[1] ?? null) : null;
  }

  /** True when the value was sealed with an older key and should be rewritten. */
  isStale(sealed: string): boolean {
    return !sealed.startsWith(this.#currentPrefix);
  }
}
