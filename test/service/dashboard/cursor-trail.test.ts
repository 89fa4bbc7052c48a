/**
 * The trail of cursors the dashboard's Newer links are made of (cursor-trail.ts): bounded however far one pages, and
 * never offering a Newer it cannot find; a `back` that is not a trail is read as none.
 */
import { describe, expect, it } from 'vitest';
import { MAX_TRAIL, MAX_TRAIL_CHARS, readTrail, trailLinks, type TrailPosition } from '../../../runtime/service/dashboard/cursor-trail.js';

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

  it(`keeps at most ${MAX_TRAIL_CHARS} characters of cursors in an address: fewer of a filtered list's longer ones`, () => {
    // A cursor of the execution history with all five of the dashboard's filters is about 250 characters.
    const long = (i: number) => `${String(i).padStart(4, '0')}${'x'.repeat(246)}`;
    let at = readTrail({});
    for (let i = 0; i < MAX_TRAIL; i++) at = follow(trailLinks({ tool: 't' }, at, long(i)).older);
    expect(at.back.join('.').length).toBeLessThanOrEqual(MAX_TRAIL_CHARS);
    expect(at.back[0]).toBe('~');
    let steps = 0;
    for (;;) {
      const links = trailLinks({ tool: 't' }, at, null);
      expect(links.newest).toBe('?tool=t');
      if (links.newer === null) break;
      at = follow(links.newer);
      steps++;
    }
    // Newer as far back as the kept cursors reach (as many as fit beside the `~`), each page the one before it.
    const kept = Math.floor((MAX_TRAIL_CHARS - 1) / 251);
    expect(steps).toBe(kept);
    expect(at.cursor).toBe(long(MAX_TRAIL - 1 - kept));
    // A cursor longer than the whole budget leaves a trail of the `~` alone.
    expect(trailLinks({}, { cursor: 'x'.repeat(MAX_TRAIL_CHARS + 1), back: [] }, 'next').older).toBe('?cursor=next&back=%7E');
  });

  it('reads a back that is no trail as none', () => {
    expect(readTrail({ cursor: 'c9', back: 'a.b c' })).toEqual({ cursor: 'c9', back: [] });
    expect(readTrail({ cursor: 'c9', back: 'a.~' })).toEqual({ cursor: 'c9', back: [] });
    expect(readTrail({ cursor: 'c9', back: ['a', 'b'] })).toEqual({ cursor: 'c9', back: [] });
    expect(readTrail({ back: 'a.b' })).toEqual({ back: [] });
  });
});
