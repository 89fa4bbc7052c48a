import { randomBytes } from 'node:crypto';
import { parseKeyring, type Keyring } from '../../../runtime/crypto/keyring.js';
import type { NewConnection, TokenSet } from '../../../runtime/store/types.js';

export const KEY_1 = `k1:${Buffer.alloc(32, 0x11).toString('base64')}`;
export const KEY_2 = `k2:${Buffer.alloc(32, 0x22).toString('base64')}`;
export const keyring1: Keyring = parseKeyring(KEY_1);
/** After rotation: k2 current, k1 still decrypts. */
export const keyring21: Keyring = parseKeyring(`${KEY_2},${KEY_1}`);
export const keyring2only: Keyring = parseKeyring(KEY_2);

/** A distinctive secret that cannot appear in a dump by accident. */
export function secret(label: string): string {
  return `${label}-${randomBytes(18).toString('base64url')}`;
}

export function tokens(overrides: Partial<TokenSet> = {}): TokenSet {
  return {
    accessToken: secret('at'),
    refreshToken: secret('rt'),
    expiresAt: new Date(Date.now() + 3600_000).toISOString(),
    tokenType: 'Bearer',
    scopes: ['https://www.googleapis.com/auth/calendar'],
    ...overrides,
  };
}

export function newConnection(environmentId: string, overrides: Partial<NewConnection> = {}): NewConnection {
  return {
    environmentId,
    name: 'google-calendar',
    connector: 'calendar',
    clientId: 'client-123.apps.example',
    clientSecret: secret('cs'),
    scopes: ['https://www.googleapis.com/auth/calendar'],
    overrides: { tokenUrl: 'http://127.0.0.1:4010/token' },
    allowedRedirectUrls: ['https://app.example/done'],
    ...overrides,
  };
}

export function inMinutes(minutes: number): string {
  return new Date(Date.now() + minutes * 60_000).toISOString();
}
