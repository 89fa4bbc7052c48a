/**
 * `"title,%5BJCR"` → `["title", "[JCR"]`: a comma list of Notion property ids, each decoded once. Notion lists ids
 * percent-encoded (`%5BJCR`, `AJP%7D`); the query string encodes them again when sent, so the official SDK decodes
 * each `filter_properties` value first, and so does this. An id that is not valid percent-encoding is kept as given.
 * @see https://developers.notion.com/reference/post-database-query (filter_properties)
 */
export function propertyIds(list: string): string[] {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map(decodeOnce);
}

/** A Notion property id decoded once (`%5BJCR` -> `[JCR`); one that is not valid percent-encoding, as given. */
export function decodeOnce(id: string): string {
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
}
