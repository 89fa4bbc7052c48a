/**
 * Record ids: a type prefix and 128 random bits in lowercase base32 (`conn_…`, `ca_…`). Random rather than sequential
 * so that ids in URLs (the OAuth callback carries the connection id) reveal nothing and cannot be enumerated.
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

export type IdPrefix = 'conn' | 'ca' | 'env' | 'mcps' | 'evt' | 'whep' | 'whdl' | 'what';

export function newId(prefix: IdPrefix): string {
  const bytes = randomBytes(16);
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return `${idStart(prefix)}${out}`;
}

/** How every id of the type starts: `ca_` for `ca`. */
export function idStart(prefix: IdPrefix): string {
  return `${prefix}_`;
}

/** A check that an id is of the type: its start and something after it (`isIdOf('ca')('ca_x')`). */
export function isIdOf(prefix: IdPrefix): (id: string) => boolean {
  const start = idStart(prefix);
  return (id) => id.length > start.length && id.startsWith(start);
}
