/**
 * Development bootstrap files in the data directory: the token signing key (mode 0600; `AGENT_CONNECTOR_TOKEN_SIGNING_KEY`
 * replaces it, and is parsed here too) and which environment and
 * client id `npm start` created (ids only — the client secret exists nowhere but in the hash in the database).
 */
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './config.js';

export const SIGNING_KEY_FILE = 'token-signing.key';
export const DEV_STATE_FILE = 'development.json';

/** Decodes a key given as hex or base64/base64url; refuses anything shorter than 32 bytes. */
export function decodeSigningKey(text: string, source: string): Uint8Array {
  const trimmed = text.trim();
  const hex = /^[0-9a-f]+$/i.test(trimmed) && trimmed.length % 2 === 0;
  // Buffer.from(..., 'base64') skips what is not base64, so a pass phrase would pass as a key: check the text first.
  if (!hex && !/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) throw new ConfigError(`${source} must be hex or base64 (e.g. "$(openssl rand -hex 32)")`);
  const bytes = Buffer.from(trimmed, hex ? 'hex' : 'base64');
  if (bytes.length < 32) throw new ConfigError(`${source} must hold at least 32 bytes (hex or base64)`);
  return new Uint8Array(bytes);
}

/**
 * The signing keys from the environment (`key[,key...]`: the first signs, every one verifies, so a key is rotated by
 * listing the new one beside the old), or the data directory's key file (one key, created on first start). A bad
 * entry is named by its position, never quoted.
 */
export function loadSigningKeys(dataDir: string, fromEnv: string | undefined): Uint8Array[] {
  if (fromEnv) return parseSigningKeys(fromEnv, 'AGENT_CONNECTOR_TOKEN_SIGNING_KEY');
  const file = join(dataDir, SIGNING_KEY_FILE);
  if (existsSync(file)) return [decodeSigningKey(readFileSync(file, 'utf8'), file)];
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  return [new Uint8Array(key)];
}

/** Comma-separated keys, each checked by {@link decodeSigningKey}; empty entries (a trailing comma) are skipped. */
export function parseSigningKeys(text: string, variable: string): Uint8Array[] {
  const entries = text.split(',');
  const keys = entries.flatMap((entry, i) => (entry.trim() === '' ? [] : [decodeSigningKey(entry, entries.length > 1 ? `${variable} (key ${i + 1})` : variable)]));
  if (keys.length === 0) throw new ConfigError(`${variable} holds no key`);
  return keys;
}

export interface DevState {
  environmentId: string;
  clientId: string;
}

/**
 * Makes the data directory (mode 0700) and checks that it can be written, or throws a {@link ConfigError} naming
 * `AGENT_CONNECTOR_DATA_DIR`: a start runs it before it listens, since it writes `development.json` there after.
 */
export function prepareDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    accessSync(dataDir, constants.W_OK);
  } catch (error) {
    throw new ConfigError(`AGENT_CONNECTOR_DATA_DIR=${dataDir} cannot be used: ${(error as Error).message}; set it to a writable directory (a persistent one keeps the client id between starts)`);
  }
}

/** The data directory's development state, or null when there is none; a file it cannot read is a {@link ConfigError} naming it. */
export function readDevState(dataDir: string): DevState | null {
  const file = join(dataDir, DEV_STATE_FILE);
  if (!existsSync(file)) return null;
  let parsed: Partial<DevState> | null;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<DevState> | null;
  } catch (error) {
    throw new ConfigError(
      `${file} cannot be read (${(error as Error).message}); it names the environment and client id this start bootstraps: repair it, or remove it and set AGENT_CONNECTOR_CLIENT_ID`,
    );
  }
  if (parsed === null || typeof parsed !== 'object') return null;
  return typeof parsed.environmentId === 'string' && typeof parsed.clientId === 'string' ? { environmentId: parsed.environmentId, clientId: parsed.clientId } : null;
}

export function writeDevState(dataDir: string, state: DevState): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dataDir, DEV_STATE_FILE), JSON.stringify(state, null, 2) + '\n', { mode: 0o600 });
}
