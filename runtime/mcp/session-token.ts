/**
 * MCP session tokens: 256 random bits, prefixed so that a token pasted in the wrong place is recognisable (and so the
 * API can say "this is an MCP session token" instead of "invalid token"). Only the SHA-256 is stored: the value is
 * random, so a plain hash is enough to make a database dump useless, and `/mcp` can look a session up by it with one
 * indexed read per request.
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../crypto/secret-hash.js';

export const MCP_TOKEN_PREFIX = 'acmcp_';

export function newSessionToken(): { token: string; tokenHash: string } {
  const token = `${MCP_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, tokenHash: sha256Hex(token) };
}

export function sessionTokenHash(token: string): string {
  return sha256Hex(token);
}

export function looksLikeSessionToken(token: string): boolean {
  return token.startsWith(MCP_TOKEN_PREFIX);
}
