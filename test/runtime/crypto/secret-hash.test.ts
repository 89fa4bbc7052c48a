import { describe, expect, it } from 'vitest';
import { hashSecret, sha256Hex, verifySecret } from '../../../runtime/crypto/index.js';

describe('hashSecret / verifySecret', () => {
  it('verifies the right secret and refuses others', async () => {
    const hash = await hashSecret('acs_live_secret');
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(hash).not.toContain('acs_live_secret');
    expect(await verifySecret('acs_live_secret', hash)).toBe(true);
    expect(await verifySecret('acs_live_secreT', hash)).toBe(false);
    expect(await verifySecret('', hash)).toBe(false);
  });

  it('salts: the same secret hashes differently each time', async () => {
    const [a, b] = await Promise.all([hashSecret('same'), hashSecret('same')]);
    expect(a).not.toBe(b);
    expect(await verifySecret('same', b)).toBe(true);
  });

  it('treats malformed or hostile hashes as a failed verification', async () => {
    for (const bad of ['', 'plain', 'bcrypt$x', 'scrypt$16384$8$1$$', 'scrypt$999999999$8$1$c2FsdA$aGFzaGhhc2hoYXNoaGFzaA', 'scrypt$-1$8$1$c2FsdA$aGFzaGhhc2hoYXNoaGFzaA']) {
      expect(await verifySecret('x', bad)).toBe(false);
    }
  });

  it('sha256Hex is the hex SHA-256', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
