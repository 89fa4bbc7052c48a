/**
 * Small text in the dashboard's tables (who made a call, its upstream line) in a real headless Chromium at 1280 px:
 * it wraps between words, and breaks inside one only where that word alone is wider than its cell.
 */
import { describe, expect, it } from 'vitest';
import { BROWSER_TESTS, crmUser, dashboardSuite, signIn } from './browser.js';

const suite = dashboardSuite();

describe.runIf(BROWSER_TESTS)('dashboard table cells in Chromium', () => {
  it('breaks a cell\'s small text between words, not inside one, where the words fit (seen: "calend|ar", "attempt|(s)" at 1280 px)', async () => {
    const { token } = await crmUser(suite.h, 'a-rather-long-identifier-for-wrapping', 'wrap@example.com');
    await suite.h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contacts_list', identifier: 'a-rather-long-identifier-for-wrapping', tool_input: {} } });
    for (let i = 0; i < 100; i++) {
      const listed = await suite.h.call('GET', '/api/v1/executions?identifier=a-rather-long-identifier-for-wrapping', { token });
      if (listed.body.executions.length >= 1) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const page = await suite.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, suite.h);
    await page.goto(`${suite.h.url}/dashboard/executions`);
    // Every word of a cell's <small> text (the who, the upstream line) that fits the cell's width is on one line.
    const split = await page.evaluate<string[]>(`(() => {
      const out = [];
      for (const small of document.querySelectorAll('#executions tbody small')) {
        const cell = small.parentElement;
        const style = getComputedStyle(cell);
        const width = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        for (const node of small.childNodes) {
          if (node.nodeType !== 3) continue;
          const text = node.textContent;
          const re = /\\S+/g;
          let m;
          while ((m = re.exec(text))) {
            const range = document.createRange();
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            const rects = [...range.getClientRects()];
            const lines = new Set(rects.map((r) => Math.round(r.top)));
            const natural = rects.reduce((sum, r) => sum + r.width, 0);
            if (lines.size > 1 && natural <= width) out.push(m[0]);
          }
        }
      }
      return out;
    })()`);
    expect(split).toEqual([]);
  });
});
