/**
 * Documents in memory: each with its body, title and revision history, and its rendering as a Docs `Document`.
 * @see https://developers.google.com/docs/api/reference/rest/v1/documents
 */
import { driveFileId, opaqueToken } from '../google-common/ids.js';
import { DocumentBody } from './document-body.js';
import { renderContent } from './render-body.js';

const pt = (magnitude: number) => ({ magnitude, unit: 'PT' });

const DOCUMENT_STYLE = {
  background: { color: {} },
  pageNumberStart: 1,
  marginTop: pt(72),
  marginBottom: pt(72),
  marginRight: pt(72),
  marginLeft: pt(72),
  pageSize: { height: pt(792), width: pt(612) },
  marginHeader: pt(36),
  marginFooter: pt(36),
  useCustomHeaderFooterMargins: true,
};

function namedStyle(type: string, fontSize: number, extra: Record<string, unknown> = {}) {
  return {
    namedStyleType: type,
    textStyle: { fontSize: pt(fontSize), weightedFontFamily: { fontFamily: 'Arial', weight: 400 }, ...extra },
    paragraphStyle: { namedStyleType: type, alignment: 'START', lineSpacing: 115, direction: 'LEFT_TO_RIGHT' },
  };
}

const NAMED_STYLES = {
  styles: [
    namedStyle('NORMAL_TEXT', 11),
    namedStyle('HEADING_1', 20),
    namedStyle('HEADING_2', 16),
    namedStyle('HEADING_3', 14),
    namedStyle('TITLE', 26),
    namedStyle('SUBTITLE', 15),
  ],
};

export class StoredDocument {
  readonly documentId = driveFileId();
  body = new DocumentBody(structuredClone(DOCUMENT_STYLE));
  revisionId = newRevisionId();
  /** Every revision this document has had, oldest first (targetRevisionId may name any of them). */
  readonly revisions: string[] = [this.revisionId];

  constructor(public title: string) {}

  commit(body: DocumentBody): void {
    this.body = body;
    this.revisionId = newRevisionId();
    this.revisions.push(this.revisionId);
  }

  /** The `Document` resource; with tabs, the content moves under `tabs[0].documentTab`. */
  render(suggestionsViewMode: string, includeTabs: boolean): Record<string, unknown> {
    const body = this.body;
    const content: Record<string, unknown> = {
      body: { content: renderContent(body) },
      documentStyle: structuredClone(body.documentStyle),
      namedStyles: structuredClone(NAMED_STYLES),
    };
    // proto3 JSON leaves out empty maps.
    if (Object.keys(body.lists).length > 0) content.lists = structuredClone(body.lists);
    if (Object.keys(body.inlineObjects).length > 0) content.inlineObjects = structuredClone(body.inlineObjects);
    if (body.namedRanges.size > 0) content.namedRanges = namedRangesOf(body);
    const doc: Record<string, unknown> = { title: this.title };
    if (includeTabs) {
      doc.tabs = [{ tabProperties: { tabId: 't.0', title: 'Tab 1', index: 0 }, documentTab: content }];
    } else {
      Object.assign(doc, content);
    }
    doc.revisionId = this.revisionId;
    doc.suggestionsViewMode = suggestionsViewMode;
    doc.documentId = this.documentId;
    return doc;
  }
}

/** `namedRanges`: by name, each with its ranges as the slots tagged with it now lie. */
function namedRangesOf(body: DocumentBody): Record<string, unknown> {
  const out: Record<string, { name: string; namedRanges: unknown[] }> = {};
  for (const [namedRangeId, { name }] of body.namedRanges) {
    (out[name] ??= { name, namedRanges: [] }).namedRanges.push({ namedRangeId, name, ranges: body.rangesOf(namedRangeId) });
  }
  return out;
}

function newRevisionId(): string {
  return `ALBJ4L${opaqueToken(36)}`;
}
