import { describe, it, expect } from 'vitest';
import { schedulePurge } from '../../runtime/service/purge-schedule.js';

const quietLogger = () => {
  const lines: string[] = [];
  return { lines, logger: { info: (_o: unknown, msg?: string) => void lines.push(`info ${msg}`), warn: (_o: unknown, msg?: string) => void lines.push(`warn ${msg}`) } };
};

describe('schedulePurge', () => {
  it('purges at start, then on every tick, and stops on stop()', async () => {
    let calls = 0;
    const store = { purgeExpired: async () => ++calls };
    const { logger, lines } = quietLogger();
    const schedule = schedulePurge(store, logger, 20);
    await schedule.first;
    expect(calls).toBe(1);
    await new Promise((r) => setTimeout(r, 75));
    expect(calls).toBeGreaterThanOrEqual(3);
    await schedule.stop();
    const stoppedAt = calls;
    await new Promise((r) => setTimeout(r, 60));
    expect(calls).toBe(stoppedAt);
    expect(lines[0]).toBe('info purged expired OAuth states and authorization links');
  });

  it('logs a failed purge and keeps going', async () => {
    let calls = 0;
    const store = {
      purgeExpired: async () => {
        calls += 1;
        if (calls === 1) throw new Error('database is locked');
        return 0;
      },
    };
    const { logger, lines } = quietLogger();
    const schedule = schedulePurge(store, logger, 10);
    await expect(schedule.first).resolves.toBeUndefined();
    expect(lines).toEqual(['warn purging expired OAuth states and authorization links failed']);
    await new Promise((r) => setTimeout(r, 40));
    await schedule.stop();
    expect(calls).toBeGreaterThan(1);
  });
});
