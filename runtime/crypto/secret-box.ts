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

const DOORKEEPER_SLOTS = 1 << 16;

/**
 * A doorkeeper slot for a sealed value, from characters of its authentication tag (the last 22 base64url characters,
 * random for every write), so nearby characters of similar values do not collide more than chance.
 */
function doorkeeperSlot(sealed: string): number {
  const n = sealed.length;
  let h = 0;
  for (let i = n - 10; i < n - 2; i++) h = (Math.imul(h, 31) + sealed.charCodeAt(i)) | 0;
  return (h ^ (h >>> 16)) & (DOORKEEPER_SLOTS - 1);
}

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
  /** Sealed value -> its slot in the ring arrays below; a small integer, so an entry allocates no object. */
  readonly #cache: Map<string, number> | null;
  readonly #aads: (string | undefined)[];
  readonly #plaintexts: (string | undefined)[];
  /** Insertion order for eviction, as a ring: V8 Maps get slow when used as a queue (deleted slots pile up). */
  readonly #ring: (string | undefined)[];
  #ringNext = 0;
  /**
   * The doorkeeper (as in TinyLFU): a value is admitted to the cache on its second miss within a while, not its
   * first. A value opened once (a random lookup over many accounts) then costs no insertion and no eviction of one
   * that is used again; a value used again (an account called every few seconds) is cached from its third open.
   * One byte per hash slot, no allocation per miss; cleared after as many first sightings as it has slots / 2.
   */
  readonly #seen: Uint8Array;
  #sightings = 0;
  #hits = 0;
  #opens = 0;

  /**
   * @param opts.cacheSize How many opened values to remember (default 0: none). A hit needs the same sealed value and the
   *   same AAD, so a hit is exactly a value that already authenticated for this record; a moved ciphertext never
   *   hits. It trades memory holding plaintext tokens (which the process handles anyway) for skipping AES on the
   *   executor's hot path. Oldest entries are evicted first.
   */
  constructor(keyring: Keyring, opts: { cacheSize?: number } = {}) {
    this.#keyring = keyring;
    this.#currentPrefix = `${VERSION}.${keyring.current.kid}.`;
    const size = Math.max(0, Math.floor(opts.cacheSize ?? 0));
    this.#cache = size > 0 ? new Map() : null;
    this.#ring = new Array<string | undefined>(size).fill(undefined);
    this.#aads = new Array<string | undefined>(size).fill(undefined);
    this.#plaintexts = new Array<string | undefined>(size).fill(undefined);
    this.#seen = new Uint8Array(size > 0 ? DOORKEEPER_SLOTS : 0);
  }

  /** Opens that decrypted and opens answered from the cache, since this box was made. */
  get stats(): { decrypted: number; cached: number } {
    return { decrypted: this.#opens, cached: this.#hits };
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
    // Sealed values are unique (random nonce), so they key the cache alone; the AAD must match too.
    const slot = this.#cache?.get(sealed);
    if (slot !== undefined && this.#aads[slot] === aad) {
      this.#hits++;
      return this.#plaintexts[slot]!;
    }
    // indexOf rather than split: this runs for every token on every tool call.
    const d1 = sealed.indexOf('.');
    const d2 = sealed.indexOf('.', d1 + 1);
    const d3 = sealed.indexOf('.', d2 + 1);
    if (d1 === -1 || d2 === -1 || d3 === -1 || sealed.indexOf('.', d3 + 1) !== -1 || sealed.slice(0, d1) !== VERSION) {
      throw new SecretDecryptError(aad, 'not a sealed value (unknown format)');
    }
    const kid = sealed.slice(d1 + 1, d2);
    const entry = this.#keyring.get(kid);
    if (!entry) throw new SecretDecryptError(aad, `key id "${kid}" is not in the keyring`);
    // A 12-byte nonce is exactly 16 base64 characters (no padding), so nonce and body decode as one string into one
    // buffer: one decode and one allocation instead of two.
    if (d3 - d2 - 1 !== NONCE_CHARS) throw new SecretDecryptError(aad, 'truncated value');
    const raw = Buffer.from(sealed.slice(d2 + 1, d3) + sealed.slice(d3 + 1), 'base64url');
    if (raw.length < NONCE_BYTES + TAG_BYTES) throw new SecretDecryptError(aad, 'truncated value');
    let plaintext: string;
    try {
      const decipher = createDecipheriv('aes-256-gcm', entry.key, raw.subarray(0, NONCE_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      // Buffers in, one utf8 decode out: an output encoding on update/final would set up a StringDecoder per call.
      // GCM is a stream mode, so update returns every byte and final (which checks the tag) returns none.
      const head = decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES));
      const tail = decipher.final();
      plaintext = (tail.length === 0 ? head : Buffer.concat([head, tail])).toString('utf8');
    } catch {
      // The underlying error says only "Unsupported state or unable to authenticate data"; ours says where.
      throw new SecretDecryptError(aad, `authentication failed with key "${kid}" (wrong key, or the value belongs to another record)`);
    }
    this.#opens++;
    if (this.#cache && this.#admit(sealed)) {
      const next = this.#ringNext;
      const evicted = this.#ring[next];
      if (evicted !== undefined) this.#cache.delete(evicted);
      this.#ring[next] = sealed;
      this.#aads[next] = aad;
      this.#plaintexts[next] = plaintext;
      this.#ringNext = (next + 1) % this.#ring.length;
      this.#cache.set(sealed, next);
    }
    return plaintext;
  }

  /** Whether a value that just missed goes into the cache: only when the doorkeeper has seen it miss before. */
  #admit(sealed: string): boolean {
    const slot = doorkeeperSlot(sealed);
    if (this.#seen[slot] === 1) return true;
    this.#seen[slot] = 1;
    if (++this.#sightings >= DOORKEEPER_SLOTS / 2) {
      this.#seen.fill(0);
      this.#sightings = 0;
    }
    return false;
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
