/**
 * The target-size measure (target-size.ts, WCAG 2.2 2.5.8) on small pages of known geometry, in the same headless
 * Chromium: what it fails, what the spacing and inline exceptions excuse, and what it does not measure. The dashboard's
 * own pages are measured in accessibility.test.ts.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TESTS, launchDashboardBrowser, type DashboardBrowser } from './browser.js';
import { targetSizes } from './target-size.js';

let browser: DashboardBrowser | undefined;
let page: Page;

/** Geometry in px, by absolute position, so that fonts do not change it. */
const STYLE = '<style>body { margin: 0; font: 15px/1.5 sans-serif } .at { position: absolute; margin: 0; padding: 0; border: 0; box-sizing: border-box }</style>';
const box = (tag: string, id: string, left: number, top: number, width: number, height: number, extra = ''): string =>
  `<${tag} id="${id}" class="at" ${tag === 'a' ? 'href="#" ' : ''}style="left: ${left}px; top: ${top}px; width: ${width}px; height: ${height}px; display: block"${extra}>${id}</${tag}>`;

async function measure(body: string) {
  await page.setContent(`<!doctype html><html lang="en"><head>${STYLE}</head><body>${body}</body></html>`);
  return targetSizes(page);
}

describe.runIf(BROWSER_TESTS)('target size measure (WCAG 2.5.8)', () => {
  beforeAll(async () => {
    browser = await launchDashboardBrowser();
    page = await browser.context.newPage();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('fails two undersized targets whose circles meet, naming each with its size', async () => {
    // 20 by 20, centres 22 px apart: the 24 px circles intersect.
    const { failures } = await measure(box('button', 'one', 10, 10, 20, 20) + box('button', 'two', 32, 10, 20, 20));
    expect(failures).toEqual([
      'button#one "one" 20.0×20.0: under 24 by 24 px, and its circle meets the circle of button#two "two"',
      'button#two "two" 20.0×20.0: under 24 by 24 px, and its circle meets the circle of button#one "one"',
    ]);
  });

  it('excuses undersized targets spaced so that their circles meet nothing (the spacing exception)', async () => {
    // Centres 24 px apart: the circles touch, they do not intersect.
    expect((await measure(box('button', 'one', 10, 10, 20, 20) + box('button', 'two', 34, 10, 20, 20))).failures).toEqual([]);
  });

  it('passes targets of 24 by 24 side by side, and fails an undersized one whose circle reaches a large one', async () => {
    expect((await measure(box('button', 'one', 10, 10, 24, 24) + box('button', 'two', 34, 10, 24, 24))).failures).toEqual([]);
    // A link 100 by 18; a button 11 px below its centre.
    const { failures } = await measure(box('a', 'link', 10, 10, 100, 18) + box('button', 'big', 10, 30, 100, 30));
    expect(failures).toEqual(['a#link "link" 100.0×18.0: under 24 by 24 px, and its circle meets button#big "big"']);
  });

  it('fails targets that overlap, whatever their size', async () => {
    const { failures } = await measure(box('button', 'one', 10, 10, 40, 40) + box('button', 'two', 40, 10, 40, 40));
    expect(failures).toEqual(['button#one "one" 40.0×40.0: overlaps button#two "two" 40.0×40.0']);
  });

  it('measures a checkbox as its label, and a text field with its label', async () => {
    // Labels 22 px high, one under the other: each checkbox's target is its label's box (200 by 22), under 24, and its
    // circle reaches the other label.
    const checks = (height: number) =>
      ['send', 'keep'].map((name, i) => `<label class="at" style="left: 0; top: ${i * height}px; width: 200px; height: ${height}px; display: block"><input type="checkbox" name="${name}"> ${name}</label>`).join('');
    expect((await measure(checks(22))).failures).toEqual([
      'input[name=send] "send" 200.0×22.0: under 24 by 24 px, and its circle meets input[name=keep] "keep"',
      'input[name=keep] "keep" 200.0×22.0: under 24 by 24 px, and its circle meets input[name=send] "send"',
    ]);
    // Labels of 24 px: the same checkboxes pass.
    expect((await measure(checks(24))).failures).toEqual([]);
    // A label above its field is part of the field's target: a link whose circle reaches the label meets the field.
    const field = '<label for="f" class="at" style="left: 0; top: 0; width: 200px; height: 20px; display: block">Field</label>' + box('input', 'f', 0, 40, 200, 30) + box('a', 'near', 0, 30, 10, 10);
    const { failures } = await measure(field);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/^a#near "near" 10\.0×10\.0: under 24 by 24 px, and its circle meets input#f "Field"$/);
  });

  it('excuses a link in a sentence (the inline exception), not links with only separators between them', async () => {
    // Two links at the start of two lines of text, a line (22.5 px) apart: their circles intersect.
    const sentence = await measure('<p style="margin: 0"><a href="#">one</a> is the first link<br><a href="#">two</a> is the second</p>');
    expect(sentence.failures).toEqual([]);
    expect(sentence.inline).toHaveLength(2);
    expect(sentence.inline[0]).toMatch(/^a "one" [\d.]+×[\d.]+: in "is the first link is the second"$/);
    const nav = await measure('<nav style="width: 60px"><a href="#">one</a> ·<br><a href="#">two</a> ·</nav>');
    expect(nav.inline).toEqual([]);
    expect(nav.failures).toHaveLength(2);
    expect(nav.failures[0]).toMatch(/^a "one" [\d.]+×[\d.]+: under 24 by 24 px, and its circle meets the circle of a "two"$/);
  });

  it('measures targets scrolled out of their box, not those outside the page (a skip link at -999 px)', async () => {
    const scrolled = await measure(`<div style="width: 100px; overflow-x: auto"><div style="position: relative; width: 1000px; height: 40px">${box('button', 'one', 500, 10, 20, 20)}${box('button', 'two', 522, 10, 20, 20)}</div></div>`);
    expect(scrolled.failures).toHaveLength(2);
    expect((await measure(box('a', 'skip', -999, 0, 20, 20) + box('a', 'skip2', -999, 5, 20, 20))).failures).toEqual([]);
  });
});
