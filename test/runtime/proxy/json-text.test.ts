/**
 * `memberText` scans JSON text by hand (the platform's `JSON.parse` gives no source positions on Node 20), so it is
 * pinned to `JSON.parse`: for any object, written compactly or indented, each member's text parses to the value
 * `JSON.parse` gives that member, and a key the object lacks has none.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memberText } from '../../../runtime/proxy/json-text.js';

const objects = fc.dictionary(fc.string(), fc.jsonValue());

describe('memberText', () => {
  it('agrees with JSON.parse on every member of any object, compact or indented', () => {
    fc.assert(
      fc.property(objects, fc.constantFrom(undefined, 2, '\t'), fc.string(), (object, indent, missing) => {
        const text = JSON.stringify(object, null, indent);
        const parsed = JSON.parse(text) as Record<string, unknown>;
        for (const key of Object.keys(parsed)) {
          const member = memberText(text, key);
          expect(member).toBeDefined();
          expect(member).toBe(member!.trim());
          expect(JSON.parse(member!)).toEqual(parsed[key]);
        }
        if (!Object.hasOwn(parsed, missing)) expect(memberText(text, missing)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('takes the last of duplicate keys and compares keys decoded, as JSON.parse does', () => {
    expect(memberText('{"body": 1, "b\\u006fdy": {"n": 9007199254740993}}', 'body')).toBe('{"n": 9007199254740993}');
    expect(memberText('{"a": "}", "body": [1, "]", {"x": "\\""}] }', 'body')).toBe('[1, "]", {"x": "\\""}]');
  });
});
