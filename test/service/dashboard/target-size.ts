/**
 * WCAG 2.2 success criterion 2.5.8, Target Size (Minimum), level AA, measured in the page Chromium shows. The
 * criterion: "The size of the target for pointer inputs is at least 24 by 24 CSS pixels, except when" one of its
 * exceptions holds. This measures the size and applies two of the exceptions:
 *
 * - Spacing: "Undersized targets (those less than 24 by 24 CSS pixels) are positioned so that if a 24 CSS pixel
 *   diameter circle is centered on the bounding box of each, the circles do not intersect another target or the
 *   circle for another undersized target."
 * - Inline: "The target is in a sentence or its size is otherwise constrained by the line-height of non-target
 *   text." Taken here as: the target is laid out inline (display: inline), and the text around it in its block,
 *   outside every target, holds at least two words, so it is a link in running text; links side by side with only
 *   separators or a count between them (the header's navigation, a pager) are not.
 *
 * Not applied, so a target they would excuse fails here: Equivalent (the function is on the page again in a control
 * that meets the criterion), User agent control (a browser's own, unstyled control) and Essential.
 *
 * What is a target: every visible link, button, input (not hidden), select, textarea, summary, and anything else
 * focusable by Tab. A control and its labels are one target (a click on the label works the control), so a checkbox
 * inside its label is measured as the label's box, and a text field's label above it is part of the field's target.
 * A target's region is its boxes (one per line an inline link is broken into) and its descendants' (an inline code
 * inside a link); a target passes on size when one of its boxes is at least 24 by 24. The spacing circle is centred
 * on the bounding box of the target (its label's when the control is inside the label).
 *
 * Not visible, not measured: an element the browser does not render, or outside the page (the skip link sits at
 * -999 px until it has keyboard focus; a pointer user never meets it). Targets inside a box that scrolls sideways
 * are measured where they are laid out, scrolled or not: the distances between them are the same.
 */
import type { Page } from 'playwright-core';

export interface TargetSizeResult {
  /** One line per target that fails: `what W×H: why`. */
  failures: string[];
  /** Undersized targets excused as inline, one line each (`what W×H: in "…"`). */
  inline: string[];
}

/**
 * The page script: answers a {@link TargetSizeResult}. A string, evaluated in the page: the project's TypeScript has
 * no DOM library.
 */
export const TARGET_SIZE = `(() => {
  const MIN = 24;
  const EPSILON = 0.01;
  const SELECTOR = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [tabindex]:not([tabindex="-1"])';
  const docX = window.scrollX, docY = window.scrollY;
  const toDoc = (r) => ({ left: r.left + docX, top: r.top + docY, right: r.right + docX, bottom: r.bottom + docY, width: r.width, height: r.height });
  const rendered = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  // Off the page only where no scrolling reaches it (left or above the page's origin): a target in a table scrolled
  // sideways out of its box is still there to be scrolled to.
  const onPage = (r) => r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0;
  const clipped = (el) => { const s = getComputedStyle(el); return s.clip !== 'auto' || s.clipPath !== 'none'; };
  /** The element's boxes and its rendered descendants' (not what is clipped away, as visually hidden text is). */
  const boxes = (el) => {
    const out = [];
    const walk = (node) => {
      if (!rendered(node) || clipped(node)) return;
      for (const r of node.getClientRects()) if (r.width * r.height > 1) out.push(toDoc(r));
      for (const child of node.children) walk(child);
    };
    walk(el);
    return out;
  };
  const bounds = (rects) => {
    const b = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
    for (const r of rects) { b.left = Math.min(b.left, r.left); b.top = Math.min(b.top, r.top); b.right = Math.max(b.right, r.right); b.bottom = Math.max(b.bottom, r.bottom); }
    return { ...b, width: b.right - b.left, height: b.bottom - b.top, x: (b.left + b.right) / 2, y: (b.top + b.bottom) / 2 };
  };
  const distanceToRect = (x, y, r) => Math.hypot(Math.max(r.left - x, 0, x - r.right), Math.max(r.top - y, 0, y - r.bottom));
  const size = (b) => b.width.toFixed(1) + '×' + b.height.toFixed(1);
  const label = (el) => (el.getAttribute('aria-label') || (el.labels && el.labels.length ? el.labels[0].innerText : '') || el.innerText || el.getAttribute('placeholder') || '').replace(/\\s+/g, ' ').trim().slice(0, 40);
  /** tag, then id or name or type, then its text or label, then the header or the nearest container with an id. */
  const describe = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    else if (el.getAttribute('name')) s += '[name=' + el.getAttribute('name') + ']';
    else if (el.tagName === 'INPUT') s += '[type=' + el.type + ']';
    const t = label(el);
    if (t) s += ' "' + t + '"';
    const where = el.parentElement && el.parentElement.closest('header, [id]:not(#main)');
    if (where) s += ' in ' + (where.id ? '#' + where.id : where.tagName.toLowerCase());
    return s;
  };

  // The targets: each control with its labels, as one.
  const controls = [...document.querySelectorAll(SELECTOR)].filter((el) => rendered(el) && onPage(toDoc(el.getBoundingClientRect())));
  const targets = [];
  for (const el of controls) {
    if (targets.some((t) => t.members.includes(el))) continue;
    const labels = el.labels ? [...el.labels].filter(rendered) : [];
    const wrapping = labels.find((l) => l.contains(el));
    const primary = wrapping || el;
    const own = boxes(primary);
    if (own.length === 0) continue;
    const parts = [...own];
    for (const l of labels) if (l !== wrapping) parts.push(...boxes(l));
    targets.push({ el, primary, members: [el, ...labels], parts, box: bounds(own), name: describe(el) });
  }
  for (const t of targets) t.big = t.parts.some((r) => r.width >= MIN - EPSILON && r.height >= MIN - EPSILON);

  /** The words of the text around an inline target in its block, outside every target (the inline exception). */
  const isTarget = (node) => node.nodeType === 1 && (node.matches(SELECTOR) || node.tagName === 'LABEL');
  const runningText = (el) => {
    if (getComputedStyle(el).display !== 'inline') return '';
    let block = el.parentElement;
    while (block && getComputedStyle(block).display.startsWith('inline')) block = block.parentElement;
    if (!block) return '';
    let out = '';
    const walk = (node) => {
      if (node.nodeType === 3) { out += node.textContent; return; }
      if (node.nodeType !== 1 || isTarget(node) || !rendered(node) || clipped(node)) return;
      if (node !== block && !getComputedStyle(node).display.startsWith('inline')) return;
      for (const child of node.childNodes) walk(child);
    };
    walk(block);
    const words = out.match(/[A-Za-z]{2,}/g) || [];
    return words.length >= 2 ? out.replace(/\\s+/g, ' ').trim().slice(0, 60) : '';
  };

  const failures = [];
  const inline = [];
  // A target partly under another has less than its box to be hit: a failure whatever its size.
  const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > EPSILON && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > EPSILON;
  targets.forEach((t, i) => {
    for (const u of targets.slice(i + 1)) {
      if (t.primary.contains(u.primary) || u.primary.contains(t.primary)) continue;
      if (t.parts.some((a) => u.parts.some((b) => overlap(a, b)))) failures.push(t.name + ' ' + size(t.box) + ': overlaps ' + u.name + ' ' + size(u.box));
    }
  });
  for (const t of targets) {
    if (t.big) continue;
    const c = t.box;
    const hits = [];
    for (const u of targets) {
      if (u === t) continue;
      if (u.parts.some((r) => distanceToRect(c.x, c.y, r) < MIN / 2 - EPSILON)) hits.push('circle meets ' + u.name);
      else if (!u.big && Math.hypot(c.x - u.box.x, c.y - u.box.y) < MIN - EPSILON) hits.push("circle meets the circle of " + u.name);
    }
    if (hits.length === 0) continue;
    const sentence = runningText(t.el);
    if (sentence) { inline.push(t.name + ' ' + size(c) + ': in "' + sentence + '"'); continue; }
    failures.push(t.name + ' ' + size(c) + ': under 24 by 24 px, and its ' + hits.join('; '));
  }
  return { failures, inline };
})()`;

/** Measures the page the browser shows now (see the module's comment). */
export function targetSizes(page: Page): Promise<TargetSizeResult> {
  return page.evaluate<TargetSizeResult>(TARGET_SIZE);
}
