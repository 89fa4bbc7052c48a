/**
 * Encryption keys for secrets at rest.
 *
 * Keys come from `AGENT_CONNECTOR_ENCRYPTION_KEY` as `kid:base64key[,kid:base64key...]`; the first key is the current
 * one (it encrypts every new write) and the others only decrypt, which is how a key is rotated without downtime: put
 * the new key first, keep the old one after it, run `Store.reencryptAll()`, then drop the old key.
 */
import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Key ids appear inside every sealed value (`v1.<kid>....`), so they are restricted to a dot-free alphabet. */
const KID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
const KEY_BYTES = 32;
/** The kid a bare base64 key (no `kid:` prefix) gets. */
export const DEFAULT_KID = 'k1';
export const KEY_FILE_NAME = 'encryption.key';
export const ENCRYPTION_KEY_ENV = 'AGENT_CONNECTOR_ENCRYPTION_KEY';

export interface KeyringKey {
  kid: string;
  key: KeyObject;
}

/** The thrown error never quotes the configured value: a half-valid key is still a key. */
export class KeyringError extends Error {
  readonly code = 'invalid_encryption_key';
  constructor(message: string) {
    super(message);
    this.name = 'KeyringError';
  }
}

/** An ordered set of AES-256 keys: `current` encrypts, every key decrypts by its kid. */
export class Keyring {
  readonly current: KeyringKey;
  readonly #byKid: Map<string, KeyringKey>;

  constructor(keys: KeyringKey[]) {
    const first = keys[0];
    if (!first) throw new KeyringError('the keyring needs at least one key');
    this.current = first;
    this.#byKid = new Map();
    for (const k of keys) {
      if (this.#byKid.has(k.kid)) throw new KeyringError(`duplicate key id "${k.kid}" in the keyring`);
      this.#byKid.set(k.kid, k);
    }
  }

  get(kid: string): KeyringKey | undefined {
    return this.#byKid.get(kid);
  }

  /** Key ids in order, current first. Safe to log. */
  get kids(): string[] {
    return [...this.#byKid.keys()];
  }

  /** Never print key material, even by accident through `console.log(keyring)` or JSON. */
  toJSON(): { current: string; kids: string[] } {
    return { current: this.current.kid, kids: this.kids };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Keyring(current=${this.current.kid}, kids=${this.kids.join(',')})`;
  }
}

/**
 * Parses `kid:base64key[,kid:base64key...]` (commas or newlines between entries). A bare base64 key is kid `k1`.
 * Each key must decode to exactly 32 bytes (standard or URL-safe base64).
 */
export function parseKeyring(spec: string): Keyring {
  const entries = spec
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0 && !s.startsWith('#'));
  if (entries.length === 0) throw new KeyringError(`${ENCRYPTION_KEY_ENV} is empty`);
  const keys = entries.map((entry, i) => {
    const colon = entry.indexOf(':');
    const kid = colon === -1 ? DEFAULT_KID : entry.slice(0, colon).trim();
    const b64 = colon === -1 ? entry : entry.slice(colon + 1).trim();
    if (!KID_PATTERN.test(kid)) {
      throw new KeyringError(`encryption key #${i + 1}: the key id must match ${KID_PATTERN.source}`);
    }
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(b64)) {
      throw new KeyringError(`encryption key "${kid}": the key is not base64`);
    }
    const raw = Buffer.from(b64, b64.includes('-') || b64.includes('_') ? 'base64url' : 'base64');
    if (raw.length !== KEY_BYTES) {
      throw new KeyringError(`encryption key "${kid}": expected ${KEY_BYTES} bytes after base64 decoding, got ${raw.length}`);
    }
    return { kid, key: createSecretKey(raw) };
  });
  return new Keyring(keys);
}

/** A fresh random key in the `kid:base64` form `AGENT_CONNECTOR_ENCRYPTION_KEY` accepts. */
export function generateKeySpec(kid: string = DEFAULT_KID): string {
  if (!KID_PATTERN.test(kid)) throw new KeyringError(`the key id must match ${KID_PATTERN.source}`);
  return `${kid}:${randomBytes(KEY_BYTES).toString('base64')}`;
}

export interface LoadKeyringOptions {
  /** The value of `AGENT_CONNECTOR_ENCRYPTION_KEY`, if set. */
  encryptionKeys?: string | undefined;
  /** Where the development key file lives (`<dataDir>/encryption.key`). */
  dataDir: string;
  /** True under `NODE_ENV=production`: then a missing key is fatal instead of generating one. */
  production: boolean;
  /** Receives the warning when a development key file is used; it names the file, never the key. */
  warn?: (message: string) => void;
}

export interface LoadedKeyring {
  keyring: Keyring;
  /** Where the keys came from. */
  source: 'env' | 'key-file-created' | 'key-file';
  /** Set when the keys came from the development key file; say it loudly at start-up. */
  warning: string | null;
}

/**
 * Loads the keyring the service uses.
 *
 * - `encryptionKeys` set: parsed as above.
 * - otherwise in production: throws, so the service refuses to start rather than invent a key that would be lost
 *   with the container.
 * - otherwise: reads `<dataDir>/encryption.key`, creating it (mode 0600, directories 0700) with a fresh key if it does
 *   not exist, and returns a warning.
 */
export function loadKeyring(opts: LoadKeyringOptions): LoadedKeyring {
  const configured = opts.encryptionKeys?.trim();
  if (configured) {
    try {
      return { keyring: parseKeyring(configured), source: 'env', warning: null };
    } catch (error) {
      // Name the variable: "encryption key \"k1\": ..." alone does not say where to look.
      if (error instanceof KeyringError) throw new KeyringError(`${ENCRYPTION_KEY_ENV}: ${error.message}`);
      throw error;
    }
  }
  if (opts.production) {
    throw new KeyringError(
      `${ENCRYPTION_KEY_ENV} is not set and NODE_ENV=production: refusing to start. ` +
        `Set it to "kid:base64key" with a 32-byte key (e.g. "k1:$(openssl rand -base64 32)").`,
    );
  }
  const file = join(opts.dataDir, KEY_FILE_NAME);
  const created = createKeyFileIfMissing(opts.dataDir, file);
  const keyring = parseKeyring(readFileSync(file, 'utf8'));
  const mode = statSync(file).mode & 0o777;
  const warning =
    `${ENCRYPTION_KEY_ENV} is not set: ${created ? 'created' : 'using'} the development key file ${file} ` +
    `(current key id "${keyring.current.kid}"). Set ${ENCRYPTION_KEY_ENV} in production; losing this file makes stored tokens unreadable.` +
    (mode & 0o077 ? ` The key file is readable by other users (mode ${mode.toString(8)}): chmod 600 it.` : '');
  opts.warn?.(warning);
  return { keyring, source: created ? 'key-file-created' : 'key-file', warning };
}

/**
 * Writes the key to a temporary file and hard-links it into place: the link fails if another process won the race,
 * and nobody ever reads a half-written key file.
 */
function createKeyFileIfMissing(dataDir: string, file: string): boolean {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, `${generateKeySpec()}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkSync(tmp);
  }
}
