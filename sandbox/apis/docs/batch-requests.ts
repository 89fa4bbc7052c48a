/**
 * `documents.batchUpdate` requests applied to a body. The caller hands in a copy and commits it only if every
 * request succeeds, which gives the API's all-or-nothing batches. Errors name `requests[i].<kind>` like Docs does.
 * @see https://developers.google.com/docs/api/reference/rest/v1/documents/request
 */
import { GoogleApiError } from '../google-common/errors.js';
import { isRecord } from '../google-common/request.js';
import type { DocumentBody } from './document-body.js';

/** Every request kind the real API knows; ones the sandbox does not model answer 501. */
const KNOWN_KINDS = new Set([
  'replaceAllText', 'insertText', 'updateTextStyle', 'createParagraphBullets', 'deleteParagraphBullets', 'createNamedRange',
  'deleteNamedRange', 'updateParagraphStyle', 'deleteContentRange', 'insertInlineImage', 'insertTable', 'insertTableRow',
  'insertTableColumn', 'deleteTableRow', 'deleteTableColumn', 'insertPageBreak', 'deletePositionedObject',
  'updateTableColumnProperties', 'updateTableCellStyle', 'updateTableRowStyle', 'replaceImage', 'updateDocumentStyle',
  'mergeTableCells', 'unmergeTableCells', 'createHeader', 'createFooter', 'createFootnote', 'replaceNamedRangeContent',
  'updateSectionStyle', 'insertSectionBreak', 'deleteHeader', 'deleteFooter', 'pinTableHeaderRows', 'addDocumentTab',
  'deleteTab', 'updateDocumentTabProperties', 'insertPerson', 'insertDate',
]);

const bad = (message: string): GoogleApiError => new GoogleApiError(400, message);

/** Applies one request; returns its reply (`{}` when the kind has none). */
export function applyRequest(body: DocumentBody, request: unknown, i: number): Record<string, unknown> {
  if (!isRecord(request)) throw bad(`Invalid value at 'requests[${i}]' (type.googleapis.com/google.apps.docs.v1.Request)`);
  const kinds = Object.keys(request);
  for (const k of kinds) {
    if (!KNOWN_KINDS.has(k)) throw bad(`Invalid JSON payload received. Unknown name "${k}" at 'requests[${i}]': Cannot find field.`);
  }
  if (kinds.length !== 1) {
    throw bad(kinds.length === 0
      ? `Invalid requests[${i}]: The request must specify exactly one kind of request.`
      : `Invalid JSON payload received. Oneof field 'request' is already set. Cannot set '${kinds[1]}'`);
  }
  const kind = kinds[0] as string;
  const where = `requests[${i}].${kind}`;
  const args = request[kind];
  if (!isRecord(args)) throw bad(`Invalid value at '${where}'`);
  switch (kind) {
    case 'insertText':
      insertText(body, args, where);
      return {};
    case 'deleteContentRange': {
      const { start, end } = checkRange(body, args.range, where);
      if (end === body.endIndex) throw bad(`Invalid ${where}: The range cannot include the newline character at the end of the segment.`);
      body.delete(start, end);
      return {};
    }
    case 'replaceAllText':
      return { replaceAllText: replaceAllText(body, args, where) };
    case 'updateTextStyle': {
      const { start, end } = checkRange(body, args.range, where);
      body.updateTextStyle(start, end, styleArg(args.textStyle, where, 'textStyle'), fieldsArg(args.fields, where));
      return {};
    }
    case 'updateParagraphStyle': {
      const { start, end } = checkRange(body, args.range, where);
      body.updateParagraphStyle(start, end, styleArg(args.paragraphStyle, where, 'paragraphStyle'), fieldsArg(args.fields, where));
      return {};
    }
    default:
      throw new GoogleApiError(501, `The sandbox does not implement ${where}.`);
  }
}

function checkSegment(segmentId: unknown, where: string): void {
  // The sandbox's documents have no headers, footers or footnotes, so only the body segment ('' or absent) exists.
  if (segmentId !== undefined && segmentId !== '') throw bad(`Invalid ${where}: The segment ID "${String(segmentId)}" was not found.`);
}

function intField(v: unknown, where: string, name: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw bad(`Invalid ${where}: ${name} must be an integer.`);
  return v;
}

function insertText(body: DocumentBody, args: Record<string, unknown>, where: string): void {
  if (typeof args.text !== 'string') throw bad(`Invalid ${where}: text must be a string.`);
  const hasLocation = args.location !== undefined;
  const hasEnd = args.endOfSegmentLocation !== undefined;
  if (hasLocation === hasEnd) {
    throw bad(`Invalid ${where}: Exactly one of location or endOfSegmentLocation must be specified.`);
  }
  let index: number;
  if (hasEnd) {
    const loc = isRecord(args.endOfSegmentLocation) ? args.endOfSegmentLocation : {};
    checkSegment(loc.segmentId, where);
    index = body.endIndex - 1;
  } else {
    const loc = isRecord(args.location) ? args.location : {};
    checkSegment(loc.segmentId, where);
    index = intField(loc.index, where, 'location.index');
    if (index < 1) {
      throw bad(`Invalid ${where}: The insertion index must be inside the bounds of an existing paragraph. You can still create new paragraphs by inserting newlines.`);
    }
    if (index >= body.endIndex) {
      throw bad(`Invalid ${where}: Index ${index} must be less than the end index of the referenced segment, ${body.endIndex}.`);
    }
  }
  body.insert(index, args.text);
}

function checkRange(body: DocumentBody, range: unknown, where: string): { start: number; end: number } {
  if (!isRecord(range)) throw bad(`Invalid ${where}: range is required.`);
  checkSegment(range.segmentId, where);
  const start = intField(range.startIndex ?? 0, where, 'range.startIndex');
  const end = intField(range.endIndex ?? 0, where, 'range.endIndex');
  if (start >= end) throw bad(`Invalid ${where}: The range should not be empty.`);
  if (start < 1) throw bad(`Invalid ${where}: The range cannot include the section break at index 0.`);
  if (end > body.endIndex) {
    throw bad(`Invalid ${where}: Index ${end - 1} must be less than the end index of the referenced segment, ${body.endIndex}.`);
  }
  return { start, end };
}

function replaceAllText(body: DocumentBody, args: Record<string, unknown>, where: string): { occurrencesChanged?: number } {
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

function fieldsArg(v: unknown, where: string): string[] {
  if (typeof v !== 'string' || v.trim() === '') throw bad(`Invalid ${where}: fields must be specified.`);
  return v.split(',').map((f) => f.trim()).filter(Boolean);
}
