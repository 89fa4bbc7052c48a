/**
 * The page size of the cursor-paged lists (`GET /api/v1/executions`, `GET /api/v1/connected_accounts`,
 * `GET /api/v1/webhook_deliveries`): one rule for all. The OpenAPI document states it (codegen/emit/emit-openapi.ts),
 * so the HTTP service refuses a `limit` outside it; an in-process caller's `limit` is clamped into it, so no list reads
 * more than `max` rows for one answer.
 */
export const PAGE_SIZE = { default: 50, max: 200 } as const;

/** `limit` as a page size: the default when absent (or not a number), else within 1 to the maximum. */
export function pageLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return PAGE_SIZE.default;
  return Math.min(Math.max(Math.floor(limit), 1), PAGE_SIZE.max);
}
