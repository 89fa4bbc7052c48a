/**
 * `documents.batchUpdate` requests applied to a body. The caller hands in a copy and commits it only if every
 * request succeeds, which gives the API's all-or-nothing batches. Errors name `requests[i].<kind>` like Docs does.
 *
 * Modelled: text (insert, delete, replace all, text and paragraph style), tables (insert; rows and columns
 * inserted and deleted), page breaks, inline images (a placeholder object: the sandbox fetches nothing), bullets,
 * named ranges and the document style. Any other kind the real API knows is refused as an invalid request (400)
 * naming it, never a 501.
 * @see https://developers.google.com/docs/api/reference/rest/v1/documents/request
 */
import { GoogleApiError, valueText } from '../google-common/errors.js';
import { opaqueToken } from '../google-common/ids.js';
import { batchRequestKind, int32Value, jsonName, protoName, withJsonNames } from '../google-common/proto-json.js';
import { BULLET_PRESET_UNSPECIFIED, BULLET_PRESETS, unknownMaskField } from './request-fields.js';
import { isRecord } from '../google-common/request.js';
import { applyFields, type DocumentBody } from './document-body.js';
import { checkDeletion, deleteTableColumn, deleteTableRow, insertTable, insertTableColumn, insertTableRow } from './table-ops.js';


const bad = (message: string): GoogleApiError => new GoogleApiError(400, message);

/**
 * Applies one request; returns its reply (`{}` when the kind has none). Its kind and field names were checked by
 * checkRequestFields (request-fields.ts) before any request of the batch was applied.
 */
export function applyRequest(body: DocumentBody, request: unknown, i: number): Record<string, unknown> {
  // A kind and its fields may go by their proto names (insert_text, end_of_segment_location), as Google's parser takes them.
  const { kind, sent } = batchRequestKind(request, i, 'google.apps.docs.v1.Request');
  const where = `requests[${i}].${kind}`;
  const args = withJsonNames((request as Record<string, unknown>)[sent]);
  if (!isRecord(args)) throw bad(`Invalid value at '${where}'`);
  switch (kind) {
    case 'insertText':
      insertText(body, args, where);
      return {};
    case 'deleteContentRange': {
      const { start, end } = checkRange(body, args.range, where);
      if (end === body.endIndex) throw bad(`Invalid ${where}: The range cannot include the newline character at the end of the segment.`);
      checkDeletion(body, start, end, where);
      body.delete(start, end);
      return {};
    }
    case 'replaceAllText':
      return { replaceAllText: replaceAllText(body, args, where) };
    case 'updateTextStyle': {
      const { start, end } = checkRange(body, args.range, where);
      body.updateTextStyle(start, end, styleArg(args.textStyle, where, 'textStyle'), fieldsArg(args.fields, where, 'TextStyle'));
      return {};
    }
    case 'updateParagraphStyle': {
      const { start, end } = checkRange(body, args.range, where);
      body.updateParagraphStyle(start, end, styleArg(args.paragraphStyle, where, 'paragraphStyle'), fieldsArg(args.fields, where, 'ParagraphStyle'));
      return {};
    }
    case 'insertTable': {
      const rows = positiveInt(args.rows, where, 'rows');
      const columns = positiveInt(args.columns, where, 'columns');
      const index = insertionIndex(body, args, where);
      if (body.slotAt(index)?.cell) throw bad(`Invalid ${where}: The sandbox does not model tables inside table cells.`);
      insertTable(body, index, rows, columns);
      return {};
    }
    case 'insertTableRow':
      insertTableRow(body, args, where);
      return {};
    case 'insertTableColumn':
      insertTableColumn(body, args, where);
      return {};
    case 'deleteTableRow':
      deleteTableRow(body, args, where);
      return {};
    case 'deleteTableColumn':
      deleteTableColumn(body, args, where);
      return {};
    case 'insertPageBreak': {
      const index = insertionIndex(body, args, where);
      if (body.slotAt(index)?.cell) throw bad(`Invalid ${where}: Page breaks cannot be inserted inside a table.`);
      // A page break is followed by a newline: it sits in a paragraph of its own.
      body.insertSlots(index, (base, para) => [
        { ...base, kind: 'pageBreak', ch: '', text: { ...base.text } },
        { ...base, kind: 'text', ch: '\n', text: { ...base.text }, para: { ...para } },
      ]);
      return {};
    }
    case 'insertInlineImage':
      return { insertInlineImage: { objectId: insertInlineImage(body, args, where) } };
    case 'createParagraphBullets':
      createBullets(body, args, where);
      return {};
    case 'deleteParagraphBullets': {
      const { start, end } = checkRange(body, args.range, where);
      for (const nl of body.paragraphEnds(start, end)) delete nl.bullet;
      return {};
    }
    case 'createNamedRange':
      return { createNamedRange: { namedRangeId: createNamedRange(body, args, where) } };
    case 'deleteNamedRange':
      deleteNamedRange(body, args, where);
      return {};
    case 'updateDocumentStyle':
      body.documentStyle = applyFields(body.documentStyle, styleArg(args.documentStyle, where, 'documentStyle'), fieldsArg(args.fields, where, 'DocumentStyle'));
      return {};
    default:
      // A kind the real API has and the sandbox does not model: refused as an invalid request, saying so.
      throw bad(`Invalid ${where}: The sandbox does not model ${kind} requests.`);
  }
}

function checkSegment(segmentId: unknown, where: string): void {
  // The sandbox's documents have no headers, footers or footnotes, so only the body segment ('' or absent) exists.
  if (segmentId !== undefined && segmentId !== '') throw bad(`Invalid ${where}: The segment ID ${JSON.stringify(segmentId)} was not found.`);
}

/** An int32 field as Google's JSON mapping reads one: a JSON number, or a string of a decimal integer ({@link int32Value}). */
function intField(v: unknown, where: string, name: string): number {
  const n = int32Value(v);
  if (typeof n !== 'number' || !Number.isInteger(n)) throw bad(`Invalid ${where}: ${name} must be an integer.`);
  return n;
}

/** The index a `location` or `endOfSegmentLocation` names, checked to be inside a paragraph of the body. */
function insertionIndex(body: DocumentBody, args: Record<string, unknown>, where: string): number {
  const hasLocation = args.location !== undefined;
  const hasEnd = args.endOfSegmentLocation !== undefined;
  if (hasLocation === hasEnd) {
    throw bad(`Invalid ${where}: Exactly one of location or endOfSegmentLocation must be specified.`);
  }
  if (hasEnd) {
    const loc = isRecord(args.endOfSegmentLocation) ? args.endOfSegmentLocation : {};
    checkSegment(loc.segmentId, where);
    return body.endIndex - 1;
  }
  const loc = isRecord(args.location) ? args.location : {};
  checkSegment(loc.segmentId, where);
  const index = intField(loc.index, where, 'location.index');
  if (index >= body.endIndex) {
    throw bad(`Invalid ${where}: Index ${index} must be less than the end index of the referenced segment, ${body.endIndex}.`);
  }
  if (index < 1 || !body.isInParagraph(index)) {
    throw bad(`Invalid ${where}: The insertion index must be inside the bounds of an existing paragraph. You can still create new paragraphs by inserting newlines.`);
  }
  return index;
}

function insertText(body: DocumentBody, args: Record<string, unknown>, where: string): void {
  if (typeof args.text !== 'string') throw bad(`Invalid ${where}: text must be a string.`);
  body.insertText(insertionIndex(body, args, where), args.text);
}

function positiveInt(v: unknown, where: string, name: string): number {
  const n = intField(v, where, name);
  if (n < 1) throw bad(`Invalid ${where}: ${name} must be at least 1.`);
  return n;
}

function insertInlineImage(body: DocumentBody, args: Record<string, unknown>, where: string): string {
  const uri = args.uri;
  // Docs fetches the image from a public URI of at most 2 kB; the sandbox checks the URI and fetches nothing.
  if (typeof uri !== 'string' || uri.length === 0) throw bad(`Invalid ${where}: uri is required.`);
  if (uri.length > 2048 || !/^https?:\/\//.test(uri)) throw bad(`Invalid ${where}: The image URI must be a public http(s) URL of at most 2 kB.`);
  const index = insertionIndex(body, args, where);
  const objectId = `kix.${opaqueToken(12)}`;
  const embeddedObject: Record<string, unknown> = { imageProperties: { contentUri: `https://lh3.googleusercontent.com/sandbox/${objectId}`, sourceUri: uri } };
  if (args.objectSize !== undefined) embeddedObject.size = args.objectSize;
  body.inlineObjects[objectId] = { objectId, inlineObjectProperties: { embeddedObject } };
  body.insertSlots(index, (base) => [{ ...base, kind: 'image', ch: '', text: { ...base.text }, objectId }]);
  return objectId;
}

/**
 * Bullets on every paragraph the range touches, in one new list. Each paragraph's nesting level is its count of
 * leading tabs, which are removed, as the API describes.
 */
function createBullets(body: DocumentBody, args: Record<string, unknown>, where: string): void {
  const { start, end } = checkRange(body, args.range, where);
  const preset = args.bulletPreset;
  // Absent, or the enum's zero value (which the parser takes as a value, and which means none): Docs needs a preset.
  // Google's wording for this is unconfirmed (not in the API reference nor any public record found); this sentence
  // says what is missing, in the form of the sandbox's other request refusals.
  if (preset === undefined || preset === null || preset === BULLET_PRESET_UNSPECIFIED) throw bad(`Invalid ${where}: bulletPreset must be specified.`);
  // Anything but a known preset name was refused by the parser (request-fields.ts) before any request was applied.
  if (typeof preset !== 'string' || !BULLET_PRESETS.has(preset)) throw bad(`Invalid ${where}: bulletPreset ${valueText(preset)} is not a bullet preset.`);
  const listId = `kix.list.${opaqueToken(10)}`;
  const glyph = preset.startsWith('NUMBERED_') ? { glyphType: 'DECIMAL', glyphFormat: '%0.' } : { glyphSymbol: '●', glyphFormat: '%0' };
  body.lists[listId] = { listProperties: { nestingLevels: Array.from({ length: 9 }, () => ({ ...glyph, startNumber: 1 })) } };
  for (const nl of body.paragraphEnds(start, end)) {
    const closing = body.slots.indexOf(nl);
    let first = closing;
    while (first > 0 && body.slots[first - 1]?.kind === 'text' && body.slots[first - 1]?.ch !== '\n' && body.slots[first - 1]?.cell === nl.cell) first--;
    let tabs = 0;
    while (body.slots[first + tabs]?.kind === 'text' && body.slots[first + tabs]?.ch === '\t') tabs++;
    body.slots.splice(first, tabs);
    nl.bullet = { listId, nestingLevel: Math.min(tabs, 8) };
  }
}

function createNamedRange(body: DocumentBody, args: Record<string, unknown>, where: string): string {
  const name = args.name;
  if (typeof name !== 'string' || name.length < 1 || name.length > 256) throw bad(`Invalid ${where}: The name must be 1 to 256 characters long.`);
  const { start, end } = checkRange(body, args.range, where);
  const id = `kix.${opaqueToken(12)}`;
  body.namedRanges.set(id, { name });
  body.tagRange(id, start, end);
  return id;
}

function deleteNamedRange(body: DocumentBody, args: Record<string, unknown>, where: string): void {
  const byId = args.namedRangeId !== undefined;
  const byName = args.name !== undefined;
  if (byId === byName) throw bad(`Invalid ${where}: Exactly one of namedRangeId or name must be specified.`);
  if (byId) {
    if (!body.namedRanges.has(args.namedRangeId as string)) throw bad(`Invalid ${where}: The named range ${valueText(args.namedRangeId)} was not found.`);
    body.untagRange(args.namedRangeId as string);
    return;
  }
  for (const [id, meta] of [...body.namedRanges]) if (meta.name === args.name) body.untagRange(id);
}

function checkRange(body: DocumentBody, range: unknown, where: string): { start: number; end: number } {
  if (!isRecord(range)) throw bad(`Invalid ${where}: range is required.`);
  checkSegment(range.segmentId, where);
  const start = intField(range.startIndex ?? 0, where, 'range.startIndex');
  const end = intField(range.endIndex ?? 0, where, 'range.endIndex');
  // Docs' words for each, as live batchUpdates answered them: an inverted range is not called empty, and index 0 (an
  // absent startIndex is 0) is the body's first section break.
  if (start > end) throw bad(`Invalid ${where}: Invalid range: end index cannot be less than start index`);
  if (start === end) throw bad(`Invalid ${where}: The range should not be empty.`);
  if (start < 1) throw bad(`Invalid ${where}: Cannot operate on the first section break in the document.`);
  if (end > body.endIndex) {
    throw bad(`Invalid ${where}: Index ${end - 1} must be less than the end index of the referenced segment, ${body.endIndex}.`);
  }
  return { start, end };
}

/**
 * A value of the wrong JSON type where a message belongs, as the API's JSON parser refuses it: `Invalid value at
 * '<path>' (type.googleapis.com/google.apps.docs.v1.<Message>), <the value>`.
 */
function notAMessage(path: string, message: string, value: unknown): GoogleApiError {
  return bad(`Invalid value at '${path}' (type.googleapis.com/google.apps.docs.v1.${message}), ${JSON.stringify(value)}`);
}

function replaceAllText(body: DocumentBody, args: Record<string, unknown>, where: string): { occurrencesChanged?: number } {
  if (args.containsText !== undefined && !isRecord(args.containsText)) throw notAMessage(`${where}.containsText`, 'SubstringMatchCriteria', args.containsText);
  const criteria = isRecord(args.containsText) ? args.containsText : undefined;
  if (!criteria || typeof criteria.text !== 'string' || criteria.text.length === 0) {
    throw bad(`Invalid ${where}: containsText.text must not be empty.`);
  }
  if (args.replaceText !== undefined && typeof args.replaceText !== 'string') throw bad(`Invalid ${where}: replaceText must be a string.`);
  const n = body.replaceAll(criteria.text, (args.replaceText as string | undefined) ?? '', criteria.matchCase === true);
  // proto3 JSON leaves out a zero count.
  return n === 0 ? {} : { occurrencesChanged: n };
}

function styleArg(v: unknown, where: string, name: string): Record<string, unknown> {
  if (v === undefined) return {};
  if (!isRecord(v)) throw bad(`Invalid ${where}: ${name} must be an object.`);
  return v;
}

/**
 * A field mask's paths, each segment by its JSON name: a mask may name fields by their proto names too (`font_size`).
 * A missing or empty mask is refused in the words Google's batchUpdate APIs use for one (Docs, Sheets and Slides); a
 * path naming no field of the style (`textStyle.bold`: the style is the mask's root) with `Invalid field: <its proto
 * name>`: Docs' own 400 for an unknown mask field, as recorded live in a public repository's notes ("Invalid
 * requests[0].updateParagraphStyle: Invalid field: bogus_mask_field_xyz"), and Slides' for a rooted mask in
 * updateSlideProperties ("Invalid field: slide_properties"). Whether Docs names a rooted path by its first segment
 * or whole, or a camelCase name as sent or in snake case, is not on record. Before, such a mask was taken and set
 * nothing: a silent success.
 */
function fieldsArg(v: unknown, where: string, style: 'TextStyle' | 'ParagraphStyle' | 'DocumentStyle'): string[] {
  if (typeof v !== 'string' || v.trim() === '') throw bad(`Invalid ${where}: At least one field must be listed in 'fields'. (Use '*' to indicate all fields.)`);
  const paths = v.split(',').map((f) => f.trim().split('.').map(jsonName).join('.')).filter(Boolean);
  const unknown = unknownMaskField(paths, style);
  if (unknown !== undefined) throw bad(`Invalid ${where}: Invalid field: ${protoName(unknown)}`);
  return paths;
}
