/**
 * The trail of cursors the dashboard's Newer links are made of (cursor-trail.ts): bounded however far one pages, and
 * never offering a Newer it cannot find; a `back` that is not a trail is read as none.
 */
import { describe, expect, it } from 'vitest';
import { MAX_TRAIL, readTrail, trailLinks, type TrailPosition } from '../../../runtime/service/dashboard/cursor-trail.js';

/** The position a link's query string leads to. */
const follow = (link: string | null): TrailPosition => {
  if (link === null) throw new Error('no such link');
  return readTrail(Object.fromEntries(new URLSearchParams(link.slice(1))));
};

describe('cursor trail', () => {
  it('pages back to where it started, through every page, then stops', () => {
    const cursors = Array.from({ length: 5 }, (_, i) => `c${i}`);
    let at = readTrail({});
    for (const next of cursors) at = follow(trailLinks({ tool: 't' }, at, next).older);
    expect(at).toEqual({ cursor: 'c4', back: ['c0', 'c1', 'c2', 'c3'] });
    const seen: (string | undefined)[] = [];
    for (;;) {
      const links = trailLinks({ tool: 't' }, at, 'ignored');
      if (links.newer === null) break;
      expect(links.newer).toContain('tool=t');
      at = follow(links.newer);
      seen.push(at.cursor);
    }
    expect(seen).toEqual(['c3', 'c2', 'c1', 'c0', undefined]);
    expect(trailLinks({}, at, null)).toEqual({ newest: null, newer: null, older: null });
  });

  it(`keeps at most ${MAX_TRAIL} cursors in an address, then offers Newest where Newer is lost`, () => {
    const far = 3 * MAX_TRAIL;
    let at = readTrail({});
    for (let i = 0; i < far; i++) {
      const older = trailLinks({}, at, `cursor${i}`).older;
      expect(older!.length).toBeLessThan(MAX_TRAIL * 12);
      at = follow(older);
    }
    let steps = 0;
    for (;;) {
      const links = trailLinks({}, at, null);
      expect(links.newest).toBe('?');
      if (links.newer === null) break;
      at = follow(links.newer);
      steps++;
    }
    expect(steps).toBe(MAX_TRAIL - 1);
    expect(at.cursor).toBe(`cursor${far - MAX_TRAIL}`);
  });

  it('reads a back that is no trail as none', () => {
    expect(readTrail({ cursor: 'c9', back: 'a.b c' })).toEqual({ cursor: 'c9', back: [] });
    expect(readTrail({ cursor: 'c9', back: 'a.~' })).toEqual({ cursor: 'c9', back: [] });
    expect(readTrail({ cursor: 'c9', back: ['a', 'b'] })).toEqual({ cursor: 'c9', back: [] });
    expect(readTrail({ back: 'a.b' })).toEqual({ back: [] });
  });
});
