/**
 * Housekeeping: expired OAuth states and authorization links are deleted when the service starts and then every
 * {@link PURGE_INTERVAL_MS}. They are refused once expired anyway; purging keeps the tables from growing without bound.
 * The same run enforces the execution history's retention: records older than it are deleted.
 */
import type { Logger } from 'pino';
import type { Store } from '../store/types.js';

export const PURGE_INTERVAL_MS = 10 * 60_000;

export interface PurgeSchedule {
  /** The purge run at start (resolves when it has finished; it never rejects). */
  readonly first: Promise<void>;
  /** Stops the timer and waits for a purge in progress, so the store can be closed after it. */
  stop(): Promise<void>;
}

/** Purges now and every `intervalMs`; the timer is unref'd so it never keeps the process alive. */
export function schedulePurge(
  store: Pick<Store, 'purgeExpired'> & Partial<Pick<Store, 'purgeExecutions'>>,
  logger: Pick<Logger, 'info' | 'warn'>,
  intervalMs = PURGE_INTERVAL_MS,
  executionRetention?: { ms: number; now: () => number },
): PurgeSchedule {
  let running: Promise<void> = Promise.resolve();
  const run = (): Promise<void> => {
    running = running.then(async () => {
      try {
        const purged = await store.purgeExpired();
        if (purged > 0) logger.info({ purged }, 'purged expired OAuth states and authorization links');
      } catch (error) {
        // A failed purge is retried at the next tick; it must not take the service down.
        logger.warn({ err: error }, 'purging expired OAuth states and authorization links failed');
      }
      if (executionRetention === undefined || store.purgeExecutions === undefined) return;
      try {
        const before = new Date(executionRetention.now() - executionRetention.ms).toISOString();
        const purged = await store.purgeExecutions(before);
        if (purged > 0) logger.info({ purged, before }, 'purged execution records past their retention');
      } catch (error) {
        logger.warn({ err: error }, 'purging execution records failed');
      }
    });
    return running;
  };
  const first = run();
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return {
    first,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
