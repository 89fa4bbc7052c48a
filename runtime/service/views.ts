/**
 * Server-rendered pages (the OAuth flow's pages and the dashboard): handlebars templates under `views/`, compiled
 * once, wrapped in one layout. `{{…}}` escapes HTML, so values from users and providers render as text.
 */
import { readFileSync, readdirSync } from 'node:fs';
import Handlebars from 'handlebars';

const VIEWS_DIR = new URL('./views/', import.meta.url);

const hbs = Handlebars.create();
hbs.registerHelper('eq', (a: unknown, b: unknown) => a === b);
hbs.registerHelper('join', (list: unknown, sep: unknown) => (Array.isArray(list) ? list.join(typeof sep === 'string' ? sep : ' ') : ''));
hbs.registerHelper('lower', (value: unknown) => String(value ?? '').toLowerCase());

/** Every view, compiled; partials (`_name.hbs`) registered on the way. Read once, never changed after. */
function compileViews(): ReadonlyMap<string, Handlebars.TemplateDelegate> {
  const compiled = new Map<string, Handlebars.TemplateDelegate>();
  for (const file of readdirSync(VIEWS_DIR)) {
    if (!file.endsWith('.hbs')) continue;
    const name = file.slice(0, -'.hbs'.length);
    const source = readFileSync(new URL(file, VIEWS_DIR), 'utf8');
    if (name.startsWith('_')) hbs.registerPartial(name.slice(1), source);
    else compiled.set(name, hbs.compile(source, { strict: false }));
  }
  return compiled;
}

const templates = compileViews();

/** Renders `views/{name}.hbs` inside the layout. */
export function renderPage(name: string, context: Record<string, unknown> & { title: string }): string {
  const template = templates.get(name);
  const layout = templates.get('layout');
  if (!template || !layout) throw new Error(`no view named ${name}`);
  return layout({ ...context, body: template(context) });
}

/** Headers every rendered page carries: no framing, no inline script, no caching of tenant data. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  // same-origin, not no-referrer: with no-referrer Chromium sends `Origin: null` on the dashboard's own form posts.
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
} as const;
