/**
 * The proxy path as the execution history and traces name it: the path without its query, each part of a segment
 * that looks like a value rather than a fixed word replaced by `{}`. A fixed word is letters, `_`, `-` or `.` up to
 * 24 characters, or a version (`v3`, `v1beta`); a Google custom method after `:` is kept (`{}:batchUpdate`). So
 * `GET /crm/v3/objects/contacts/12345` is recorded as `GET /crm/v3/objects/contacts/{}`: one operation to filter on,
 * and no ids or e-mail addresses in the record.
 */
const FIXED_WORD = /^(?:v[0-9]+(?:(?:alpha|beta)[0-9]*)?|[A-Za-z_.-]{1,24})$/;

export function proxyPathTemplate(path: unknown): string {
  if (typeof path !== 'string') return '/';
  const bare = path.split(/[?#]/, 1)[0] ?? '';
  const segments = bare.split('/').map((segment) =>
    segment === '' ? segment : segment.split(':').map((part) => (FIXED_WORD.test(part) ? part : '{}')).join(':'),
  );
  const joined = segments.join('/');
  return joined.startsWith('/') ? joined : `/${joined}`;
}
