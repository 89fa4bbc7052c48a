import { createHash, randomUUID } from 'node:crypto';

/** A UUID derived from a seed, so a sandbox user keeps the same Notion ids across requests. */
export function stableUuid(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h.slice(16, 17), 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function notionUserId(email: string): string {
  return stableUuid(`notion-user|${email}`);
}

export function notionWorkspaceId(email: string): string {
  return stableUuid(`notion-workspace|${email}`);
}

/**
 * A HubSpot account (hub) id and user id for a sandbox user: each user has a CRM of their own, so a hub of their own.
 * Stable integers, as HubSpot's are (a hub id is seven to nine digits).
 */
export function hubspotHubId(email: string): number {
  return 10_000_000 + (parseInt(createHash('sha256').update(`hubspot-hub|${email}`).digest('hex').slice(0, 8), 16) % 90_000_000);
}

export function hubspotUserId(email: string): number {
  return 1_000_000 + (parseInt(createHash('sha256').update(`hubspot-user|${email}`).digest('hex').slice(0, 8), 16) % 9_000_000);
}

export function newUuid(): string {
  return randomUUID();
}
