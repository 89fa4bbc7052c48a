import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { KeyringError, generateKeySpec, loadKeyring, parseKeyring } from '../../../runtime/crypto/index.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ac-keyring-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const KEY_A = Buffer.alloc(32, 1).toString('base64');
const KEY_B = Buffer.alloc(32, 2).toString('base64url');

describe('parseKeyring', () => {
  it('reads kid:key pairs, first one current', () => {
    const ring = parseKeyring(`k2:${KEY_B}, k1:${KEY_A}`);
    expect(ring.current.kid).toBe('k2');
    expect(ring.kids).toEqual(['k2', 'k1']);
    expect(ring.get('k1')).toBeDefined();
    expect(ring.get('k3')).toBeUndefined();
  });

  it('gives a bare base64 key the kid k1', () => {
    expect(parseKeyring(KEY_A).current.kid).toBe('k1');
  });

  it.each([
    ['short key', `k1:${Buffer.alloc(16).toString('base64')}`, /expected 32 bytes/],
    ['bad kid', `k.1:${KEY_A}`, /key id/],
    ['not base64', 'k1:@@@@', /not base64/],
    ['duplicate kid', `k1:${KEY_A},k1:${KEY_B}`, /duplicate/],
    ['empty', ' , ', /empty/],
  ])('refuses %s without echoing the value', (_name, spec, message) => {
    let caught: unknown;
    try {
      parseKeyring(spec);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(KeyringError);
    expect((caught as Error).message).toMatch(message);
    const secretPart = spec.split(':')[1];
    if (secretPart && secretPart.length > 8) expect((caught as Error).message).not.toContain(secretPart);
  });

  it('never prints key material', () => {
    const ring = parseKeyring(`k1:${KEY_A}`);
    expect(JSON.stringify(ring)).not.toContain(KEY_A);
    expect(inspect(ring, { depth: 5 })).not.toContain(KEY_A);
    expect(inspect(ring)).toContain('k1');
  });

  it('generateKeySpec round-trips', () => {
    const spec = generateKeySpec('k9');
    expect(parseKeyring(spec).current.kid).toBe('k9');
  });
});

describe('loadKeyring', () => {
  it('uses the configured keys and gives no warning', () => {
    const dataDir = tempDir();
    const loaded = loadKeyring({ encryptionKeys: `k7:${KEY_A}`, dataDir, production: true });
    expect(loaded).toMatchObject({ source: 'env', warning: null });
    expect(loaded.keyring.current.kid).toBe('k7');
  });

  it('refuses to start in production without a key', () => {
    const dataDir = tempDir();
    expect(() => loadKeyring({ dataDir, production: true })).toThrow(/AGENT_CONNECTOR_ENCRYPTION_KEY is not set and NODE_ENV=production/);
    expect(() => loadKeyring({ encryptionKeys: '  ', dataDir, production: true })).toThrow(KeyringError);
  });

  it('in development creates a 0600 key file (and its directories) with a warning, then reuses it', () => {
    const dataDir = join(tempDir(), 'nested', 'data');
    const warnings: string[] = [];
    const first = loadKeyring({ dataDir, production: false, warn: (m) => warnings.push(m) });
    const file = join(dataDir, 'encryption.key');
    expect(first.source).toBe('key-file-created');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.warning).toContain(file);
    expect(warnings).toEqual([first.warning]);
    const keyText = readFileSync(file, 'utf8').trim();
    const keyMaterial = keyText.split(':')[1]!;
    expect(first.warning).not.toContain(keyMaterial);

    const second = loadKeyring({ dataDir, production: false });
    expect(second.source).toBe('key-file');
    expect(second.keyring.current.key.export().equals(first.keyring.current.key.export())).toBe(true);
  });

  it('reads an existing key file with several keys', () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'encryption.key'), `k2:${KEY_B}\nk1:${KEY_A}\n`, { mode: 0o600 });
    const loaded = loadKeyring({ dataDir, production: false });
    expect(loaded.keyring.kids).toEqual(['k2', 'k1']);
    expect(loaded.warning).not.toMatch(/readable by other users/);
  });

  it('warns when an existing key file is readable by others', () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'encryption.key'), `k1:${KEY_A}\n`);
    chmodSync(join(dataDir, 'encryption.key'), 0o644);
    expect(loadKeyring({ dataDir, production: false }).warning).toMatch(/readable by other users \(mode 644\)/);
  });
});
