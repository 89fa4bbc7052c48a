import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SecretBox, SecretDecryptError, parseKeyring, secretAad } from '../../../runtime/crypto/index.js';

const KEY_1 = Buffer.alloc(32, 7).toString('base64');
const KEY_2 = Buffer.alloc(32, 9).toString('base64');
const box = new SecretBox(parseKeyring(`k1:${KEY_1}`));
const aad = secretAad('connected_accounts', 'ca_1', 'access_token');

function decryptError(fn: () => unknown): SecretDecryptError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SecretDecryptError);
    return err as SecretDecryptError;
  }
  throw new Error('expected a SecretDecryptError');
}

describe('SecretBox', () => {
  it('round-trips any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string(), (plain, a) => {
        expect(box.open(box.seal(plain, a), a)).toBe(plain);
      }),
      { numRuns: 200 },
    );
  });

  it('writes the version, kid and a fresh nonce every time', () => {
    const a = box.seal('ya29.secret-token', aad);
    const b = box.seal('ya29.secret-token', aad);
    expect(a).toMatch(/^v1\.k1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(a.split('.')[2]).not.toBe(b.split('.')[2]);
    expect(a).not.toBe(b);
    expect(a).not.toContain('secret-token');
    expect(SecretBox.kidOf(a)).toBe('k1');
  });

  it('refuses a value moved to another row or column, without leaking it', () => {
    const sealed = box.seal('ya29.secret-token', aad);
    for (const other of [
      secretAad('connected_accounts', 'ca_2', 'access_token'),
      secretAad('connected_accounts', 'ca_1', 'refresh_token'),
      secretAad('connections', 'ca_1', 'access_token'),
    ]) {
      const err = decryptError(() => box.open(sealed, other));
      expect(err.message).toContain(other);
      expect(err.message).toMatch(/authentication failed/);
      expect(err.message).not.toContain('secret-token');
      expect(err.message).not.toContain(sealed.split('.')[3]!);
      expect(err.message).not.toContain(KEY_1);
    }
  });

  it('refuses tampered, truncated and foreign-format values', () => {
    const sealed = box.seal('hello', aad);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    const tampered = [parts[0], parts[1], parts[2], body.toString('base64url')].join('.');
    expect(decryptError(() => box.open(tampered, aad)).message).toMatch(/authentication failed/);
    expect(decryptError(() => box.open('plaintext-token', aad)).message).toMatch(/unknown format/);
    expect(decryptError(() => box.open(`v1.k1.${parts[2]}.AAAA`, aad)).message).toMatch(/truncated/);
    expect(decryptError(() => box.open(`v1.k9.${parts[2]}.${parts[3]}`, aad)).message).toMatch(/"k9" is not in the keyring/);
  });

  it('refuses a nonce of the wrong length, and a tampered nonce or tag', () => {
    const sealed = box.seal('hello', aad);
    const [v, kid, nonce, body] = sealed.split('.') as [string, string, string, string];
    // Nonce and body are decoded together: moving characters across the dot must not pass for the same value.
    expect(decryptError(() => box.open([v, kid, nonce.slice(0, 15), nonce.slice(15) + body].join('.'), aad)).message).toMatch(/truncated/);
    expect(decryptError(() => box.open([v, kid, nonce + body.slice(0, 1), body.slice(1)].join('.'), aad)).message).toMatch(/truncated/);
    expect(decryptError(() => box.open([v, kid, '', body].join('.'), aad)).message).toMatch(/truncated/);
    const flip = (b64: string, at: number) => {
      const raw = Buffer.from(b64, 'base64url');
      raw[at] = raw[at]! ^ 0x80;
      return raw.toString('base64url');
    };
    expect(decryptError(() => box.open([v, kid, flip(nonce, 11), body].join('.'), aad)).message).toMatch(/authentication failed/);
    const raw = Buffer.from(body, 'base64url');
    expect(decryptError(() => box.open([v, kid, nonce, flip(body, raw.length - 1)].join('.'), aad)).message).toMatch(/authentication failed/);
    // A tag alone (empty plaintext) is a valid value.
    expect(box.open(box.seal('', aad), aad)).toBe('');
  });

  it('rotates: new writes use the new key, old values still open, stale ones are flagged', () => {
    const old = box.seal('refresh-1', aad);
    const rotated = new SecretBox(parseKeyring(`k2:${KEY_2},k1:${KEY_1}`));
    expect(rotated.open(old, aad)).toBe('refresh-1');
    expect(rotated.isStale(old)).toBe(true);
    const fresh = rotated.seal('refresh-1', aad);
    expect(SecretBox.kidOf(fresh)).toBe('k2');
    expect(rotated.isStale(fresh)).toBe(false);
    // Once the old key is dropped, old values fail loudly rather than silently.
    const newOnly = new SecretBox(parseKeyring(`k2:${KEY_2}`));
    expect(decryptError(() => newOnly.open(old, aad)).message).toMatch(/"k1" is not in the keyring/);
    // A key with the same kid but different bytes cannot open it either.
    const impostor = new SecretBox(parseKeyring(`k1:${KEY_2}`));
    expect(decryptError(() => impostor.open(old, aad)).message).toMatch(/authentication failed/);
  });
});

describe('rotating the key across running instances (docs/operations.md, "Rotating the encryption key")', () => {
  // Each step's keyring, as the instances of a rolling restart run them: during a restart, an instance on one step
  // and another on the next share the database, so each must read what the other writes.
  const steps = [`k1:${KEY_1}`, `k1:${KEY_1},k2:${KEY_2}`, `k2:${KEY_2},k1:${KEY_1}`].map((spec) => new SecretBox(parseKeyring(spec)));

  it('lets the instances of two consecutive steps read what the other wrote', () => {
    for (let i = 0; i + 1 < steps.length; i++) {
      const [before, after] = [steps[i] as SecretBox, steps[i + 1] as SecretBox];
      expect(before.open(after.seal('written after', aad), aad), `step ${i + 2} to ${i + 1}`).toBe('written after');
      expect(after.open(before.seal('written before', aad), aad), `step ${i + 1} to ${i + 2}`).toBe('written before');
    }
  });

  it('is why the new key is added second first: an instance on the old key alone cannot read what the new key sealed', () => {
    const [oldOnly, , newFirst] = steps as [SecretBox, SecretBox, SecretBox];
    decryptError(() => oldOnly.open(newFirst.seal('written under k2', aad), aad));
  });
});
