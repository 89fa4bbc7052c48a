import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/start.js';
import type { Sandbox } from '../../sandbox/types.js';
import { clients, clock } from './helpers.js';

type Body = Record<string, any>;

describe('Docs fake over HTTP', () => {
  let sb: Sandbox;
  let token: string;
  beforeAll(async () => {
    sb = await startSandbox({ clients: clients(), now: clock().now });
    token = sb.control.issueTokens('google', 'http-docs@example.com', { scopes: ['https://www.googleapis.com/auth/documents'] }).accessToken;
  });
  afterAll(() => sb.close());

  const api = async (path: string, init: RequestInit = {}): Promise<{ status: number; body: Body }> => {
    const res = await fetch(`${sb.endpoints('docs').apiBaseUrl}/v1${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    return { status: res.status, body: (await res.json()) as Body };
  };

  it('creates a document and edits it through :batchUpdate, atomically', async () => {
    const created = await api('/documents', { method: 'POST', body: JSON.stringify({ title: 'HTTP doc' }) });
    expect(created.status).toBe(200);
    const id = created.body.documentId as string;
    const edit = await api(`/documents/${id}:batchUpdate`, {
      method: 'POST',
      body: JSON.stringify({
        requests: [{ insertText: { text: 'Hello', location: { index: 1 } } }],
        writeControl: { requiredRevisionId: created.body.revisionId },
      }),
    });
    expect(edit.status).toBe(200);
    expect(edit.body.replies).toEqual([{}]);
    const failed = await api(`/documents/${id}:batchUpdate`, {
      method: 'POST',
      body: JSON.stringify({ requests: [{ insertText: { text: 'X', location: { index: 1 } } }, { insertText: { text: 'Y', location: { index: 0 } } }] }),
    });
    expect(failed.status).toBe(400);
    expect(failed.body.error.message).toMatch(/^Invalid requests\[1\]\.insertText/);
    const doc = await api(`/documents/${id}`);
    expect(doc.body.body.content[1].paragraph.elements[0].textRun.content).toBe('Hello\n');
    expect(doc.body.revisionId).toBe(edit.body.writeControl.requiredRevisionId);
  });
});
