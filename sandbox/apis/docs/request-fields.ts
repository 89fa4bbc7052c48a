/**
 * The field names of a `documents.batchUpdate` body's requests, checked as Google's JSON front end checks them before
 * anything is applied: a name the message does not have is refused, whatever its depth, with
 * `Invalid JSON payload received. Unknown name "<name>" at '<path>': Cannot find field.` (one line per unknown name),
 * the path naming fields by their proto names (`requests[0].update_paragraph_style`). Without this, a request such as
 * `{updateParagraphStyle: {range, namedStyleType, fields}}` (the style beside range, not inside paragraphStyle) was
 * applied as if it set nothing, where Docs refuses it.
 *
 * Each message lists its fields by their JSON names (a field given by its proto name is read as its JSON name, as the
 * parser reads it), with the message type of those that hold one; the field lists are the Docs v1 reference's (the
 * official SDK's `docs_v1.Schema$*` types). Checked: every request kind, and the request messages the sandbox models,
 * down to their locations, ranges, match criteria and styles; deeper values (a style's colour or dimension) are left
 * to the request's own checks.
 * @see https://developers.google.com/docs/api/reference/rest/v1/documents/request
 * @see https://protobuf.dev/programming-guides/json/
 */
import { jsonName, protoName, refuseUnknownFields, unknownFieldProblem, unknownFieldProblems, type ProtoMessage as Message } from '../google-common/proto-json.js';
import { isRecord } from '../google-common/request.js';

const LOCATION: Message = { index: null, segmentId: null, tabId: null };
const RANGE: Message = { startIndex: null, endIndex: null, segmentId: null, tabId: null };
const AT = { location: 'Location', endOfSegmentLocation: 'EndOfSegmentLocation' } as const;

/** Every message this check reads, by its Docs v1 type name. */
const MESSAGES: Readonly<Record<string, Message>> = {
  Location: LOCATION,
  EndOfSegmentLocation: { segmentId: null, tabId: null },
  Range: RANGE,
  SubstringMatchCriteria: { text: null, matchCase: null, searchByRegex: null },
  TabsCriteria: { tabIds: null },
  TableCellLocation: { tableStartLocation: 'Location', rowIndex: null, columnIndex: null },
  Size: { height: null, width: null },
  TextStyle: {
    backgroundColor: null, baselineOffset: null, bold: null, fontSize: null, foregroundColor: null, italic: null, link: null,
    smallCaps: null, strikethrough: null, underline: null, weightedFontFamily: null,
  },
  ParagraphStyle: {
    alignment: null, avoidWidowAndOrphan: null, borderBetween: null, borderBottom: null, borderLeft: null, borderRight: null,
    borderTop: null, direction: null, headingId: null, indentEnd: null, indentFirstLine: null, indentStart: null,
    keepLinesTogether: null, keepWithNext: null, lineSpacing: null, namedStyleType: null, pageBreakBefore: null, shading: null,
    spaceAbove: null, spaceBelow: null, spacingMode: null, tabStops: null,
  },
  DocumentStyle: {
    background: null, defaultFooterId: null, defaultHeaderId: null, documentFormat: null, evenPageFooterId: null,
    evenPageHeaderId: null, firstPageFooterId: null, firstPageHeaderId: null, flipPageOrientation: null, marginBottom: null,
    marginFooter: null, marginHeader: null, marginLeft: null, marginRight: null, marginTop: null, pageNumberStart: null,
    pageSize: null, useCustomHeaderFooterMargins: null, useEvenPageHeaderFooter: null, useFirstPageHeaderFooter: null,
  },
};

/**
 * The first segment of a style update's field mask path that names no field of its style (`TextStyle`,
 * `ParagraphStyle`, `DocumentStyle`), by its JSON name, or undefined when every path names one (or is `*`). The mask
 * is read relative to the style: UpdateTextStyleRequest.fields says "The root text_style is implied and should not be
 * specified" (so `textStyle.bold` names a field `textStyle` the TextStyle does not have), and a FieldMask path that
 * maps to no field is an INVALID_ARGUMENT (google.protobuf.FieldMask). Deeper segments (`weightedFontFamily.fontFamily`)
 * are not checked.
 * @see https://developers.google.com/docs/api/reference/rest/v1/documents/request#UpdateTextStyleRequest
 * @see https://protobuf.dev/reference/protobuf/google.protobuf/#field-mask
 */
export function unknownMaskField(paths: readonly string[], style: 'TextStyle' | 'ParagraphStyle' | 'DocumentStyle'): string | undefined {
  const fields = MESSAGES[style] as Message;
  return paths.map((p) => p.split('.')[0] as string).find((name) => name !== '*' && !Object.hasOwn(fields, name));
}

/** `createParagraphBullets.bulletPreset`'s zero value: the parser takes it, the request then has no preset. */
export const BULLET_PRESET_UNSPECIFIED = 'BULLET_GLYPH_PRESET_UNSPECIFIED';

/** `createParagraphBullets.bulletPreset` values that name a preset. */
export const BULLET_PRESETS = new Set([
  'BULLET_DISC_CIRCLE_SQUARE', 'BULLET_DIAMONDX_ARROW3D_SQUARE', 'BULLET_CHECKBOX', 'BULLET_ARROW_DIAMOND_DISC',
  'BULLET_STAR_CIRCLE_SQUARE', 'BULLET_ARROW3D_CIRCLE_SQUARE', 'BULLET_LEFTTRIANGLE_DIAMOND_DISC',
  'BULLET_DIAMONDX_HOLLOWDIAMOND_SQUARE', 'BULLET_DIAMOND_CIRCLE_SQUARE', 'NUMBERED_DECIMAL_ALPHA_ROMAN',
  'NUMBERED_DECIMAL_ALPHA_ROMAN_PARENS', 'NUMBERED_DECIMAL_NESTED', 'NUMBERED_UPPERALPHA_ALPHA_ROMAN',
  'NUMBERED_UPPERROMAN_UPPERALPHA_DECIMAL', 'NUMBERED_ZERODECIMAL_ALPHA_ROMAN',
]);

/** Every value the parser takes for `bulletPreset`, the zero value included. */
const PARSED_BULLET_PRESETS: ReadonlySet<string> = new Set([BULLET_PRESET_UNSPECIFIED, ...BULLET_PRESETS]);

/** `ParagraphStyle.namedStyleType` values (a heading is HEADING_1, not "Heading 1"). */
const NAMED_STYLE_TYPES = new Set(['NAMED_STYLE_TYPE_UNSPECIFIED', 'NORMAL_TEXT', 'TITLE', 'SUBTITLE', 'HEADING_1', 'HEADING_2', 'HEADING_3', 'HEADING_4', 'HEADING_5', 'HEADING_6']);

/**
 * A value of the wrong kind where the parser wants an enum or a message, refused before anything is applied:
 * `Invalid value at '<proto path>' (type.googleapis.com/google.apps.docs.v1.<Type>), <the value>` (live: `Invalid
 * value at '...table_cell_style.border_top.dash_style' (type.googleapis.com/google.apps.docs.v1.DashStyle)`). A string
 * that is not a value of its enum; for a message, anything but an object (a font size as 18, a colour as "#ff0000").
 */
function invalidValue(at: string, type: string, value: unknown): string {
  return `Invalid value at '${at}' (type.googleapis.com/google.apps.docs.v1.${type}), ${JSON.stringify(value)}`;
}

type Kind = { enum: ReadonlySet<string> } | { message: true };
const MESSAGE: Kind = { message: true };

/** The style fields checked for their kind, by style, each with its Docs v1 type. */
const STYLE_FIELDS: Readonly<Record<string, Readonly<Record<string, readonly [string, Kind]>>>> = {
  TextStyle: {
    fontSize: ['Dimension', MESSAGE], foregroundColor: ['OptionalColor', MESSAGE], backgroundColor: ['OptionalColor', MESSAGE],
    link: ['Link', MESSAGE], weightedFontFamily: ['WeightedFontFamily', MESSAGE],
  },
  ParagraphStyle: {
    namedStyleType: ['NamedStyleType', { enum: NAMED_STYLE_TYPES }], spaceAbove: ['Dimension', MESSAGE], spaceBelow: ['Dimension', MESSAGE],
    indentStart: ['Dimension', MESSAGE], indentEnd: ['Dimension', MESSAGE], indentFirstLine: ['Dimension', MESSAGE],
  },
};

function kindProblem(value: unknown, at: string, type: string, kind: Kind): string[] {
  if (value === undefined || value === null) return [];
  // An enum takes its value's name (or number); an object, array or boolean is refused with the value as JSON.
  if ('enum' in kind) return (typeof value === 'string' && !kind.enum.has(value)) || (typeof value !== 'string' && typeof value !== 'number') ? [invalidValue(at, type, value)] : [];
  return isRecord(value) ? [] : [invalidValue(at, type, value)];
}

/** The enum and message fields the sandbox reads, in the request kinds that hold them: `at` is the request's proto path. */
function valueProblems(kind: string, args: unknown, at: string): string[] {
  // A field may go by its JSON or its proto name.
  const field = (o: Record<string, unknown>, json: string): unknown => o[json] ?? o[protoName(json)];
  if (!isRecord(args)) return [];
  if (kind === 'createParagraphBullets') return kindProblem(field(args, 'bulletPreset'), `${at}.bullet_preset`, 'CreateParagraphBulletsRequest.BulletGlyphPreset', { enum: PARSED_BULLET_PRESETS });
  const styleName = kind === 'updateTextStyle' ? 'textStyle' : kind === 'updateParagraphStyle' ? 'paragraphStyle' : undefined;
  const style = styleName === undefined ? undefined : field(args, styleName);
  if (styleName === undefined || !isRecord(style)) return [];
  const fields = STYLE_FIELDS[styleName === 'textStyle' ? 'TextStyle' : 'ParagraphStyle'] as Readonly<Record<string, readonly [string, Kind]>>;
  return Object.entries(fields).flatMap(([name, [type, k]]) => kindProblem(field(style, name), `${at}.${protoName(styleName)}.${protoName(name)}`, type, k));
}

/** The request kinds the sandbox models, each with its fields. */
const MODELLED: Readonly<Record<string, Message>> = {
  insertText: { text: null, ...AT },
  deleteContentRange: { range: 'Range' },
  replaceAllText: { replaceText: null, containsText: 'SubstringMatchCriteria', tabsCriteria: 'TabsCriteria' },
  updateTextStyle: { range: 'Range', textStyle: 'TextStyle', fields: null },
  updateParagraphStyle: { range: 'Range', paragraphStyle: 'ParagraphStyle', fields: null },
  insertTable: { rows: null, columns: null, ...AT },
  insertTableRow: { tableCellLocation: 'TableCellLocation', insertBelow: null },
  insertTableColumn: { tableCellLocation: 'TableCellLocation', insertRight: null },
  deleteTableRow: { tableCellLocation: 'TableCellLocation' },
  deleteTableColumn: { tableCellLocation: 'TableCellLocation' },
  insertPageBreak: { ...AT },
  insertInlineImage: { uri: null, objectSize: 'Size', ...AT },
  createParagraphBullets: { range: 'Range', bulletPreset: null },
  deleteParagraphBullets: { range: 'Range' },
  createNamedRange: { name: null, range: 'Range' },
  deleteNamedRange: { namedRangeId: null, name: null, tabsCriteria: 'TabsCriteria' },
  updateDocumentStyle: { documentStyle: 'DocumentStyle', fields: null, tabId: null },
};

/** The kinds the API has that the sandbox does not model: known names (refused later as not modelled), fields unread. */
const UNMODELLED = [
  'deletePositionedObject', 'updateTableColumnProperties', 'updateTableCellStyle', 'updateTableRowStyle',
  'replaceImage', 'mergeTableCells', 'unmergeTableCells', 'createHeader', 'createFooter', 'createFootnote',
  'replaceNamedRangeContent', 'updateSectionStyle', 'insertSectionBreak', 'deleteHeader', 'deleteFooter', 'pinTableHeaderRows',
  'addDocumentTab', 'deleteTab', 'updateDocumentTabProperties', 'insertPerson', 'insertDate', 'insertRichLink', 'updateNamedStyle',
];

/** Every request kind the real API knows. */
export const KNOWN_KINDS: ReadonlySet<string> = new Set([...Object.keys(MODELLED), ...UNMODELLED]);

/**
 * Refuses the batch when any request names a kind the API does not have, or a field its message does not have, or
 * gives a field the sandbox reads a value of the wrong kind (a bullet preset or named style type its enum does not
 * have, a font size or colour that is not an object), with every such problem, in request order. Runs before any request is applied, as Google parses the whole body first.
 */
export function checkRequestFields(requests: readonly unknown[]): void {
  const problems: string[] = [];
  requests.forEach((request, i) => {
    if (!isRecord(request)) return;
    for (const [key, args] of Object.entries(request)) {
      const kind = jsonName(key);
      if (!KNOWN_KINDS.has(kind)) problems.push(unknownFieldProblem(key, `requests[${i}]`));
      else if (Object.hasOwn(MODELLED, kind)) {
        const at = `requests[${i}].${protoName(kind)}`;
        problems.push(...unknownFieldProblems(args, MODELLED[kind] as Message, at, MESSAGES), ...valueProblems(kind, args, at));
      }
    }
  });
  refuseUnknownFields(problems);
}
