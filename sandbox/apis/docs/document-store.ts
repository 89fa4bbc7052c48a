/**
 * Documents in memory: each with its body, title and revision history, and its rendering as a Docs `Document`.
 * @see https://developers.google.com/docs/api/reference/rest/v1/documents
 */
import { driveFileId, opaqueToken } from '../google-common/ids.js';
import { DocumentBody } from './document-body.js';

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
  body = new DocumentBody();
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
    const content = {
      body: { content: this.body.content() },
      documentStyle: structuredClone(DOCUMENT_STYLE),
      namedStyles: structuredClone(NAMED_STYLES),
    };
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

function newRevisionId(): string {
  return `ALBJ4L${opaqueToken(36)}`;
}
