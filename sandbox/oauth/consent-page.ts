import { escapeHtml } from '../core/http.js';

export interface ConsentPageInput {
  providerName: string;
  clientId: string;
  scopes: string[];
  /** Google lets the user untick scopes: one `withhold` checkbox per scope. */
  scopesWithholdable: boolean;
  defaultUser: string;
  /** Where the form posts: the authorize URL itself, query string included. */
  action: string;
  error?: string;
}

/**
 * The consent page: a plain HTML form, no JavaScript, so a test can drive it with two requests (GET the authorize
 * URL, POST the same URL with `user` and `decision=allow|deny`).
 */
export function renderConsentPage(p: ConsentPageInput): string {
  const scopes = p.scopes.length
    ? p.scopes
        .map((s) =>
          p.scopesWithholdable
            ? `<li><label><input type="checkbox" name="withhold" value="${escapeHtml(s)}"> withhold <code>${escapeHtml(s)}</code></label></li>`
            : `<li><code>${escapeHtml(s)}</code></li>`,
        )
        .join('\n')
    : '<li>Access to the pages you choose to share</li>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(p.providerName)} sandbox: authorize ${escapeHtml(p.clientId)}</title></head>
<body>
<h1>${escapeHtml(p.providerName)} (sandbox)</h1>
<p>The application <strong id="client">${escapeHtml(p.clientId)}</strong> asks for access:</p>
<ul id="scopes">
${scopes}
</ul>
${p.error ? `<p id="error" role="alert">${escapeHtml(p.error)}</p>` : ''}
<form method="post" action="${escapeHtml(p.action)}">
<label>Sandbox user (any e-mail address; a new one starts with sample data)
<input type="email" name="user" value="${escapeHtml(p.defaultUser)}" required></label>
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
</body></html>
`;
}

export function renderErrorPage(providerName: string, error: string, description: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(providerName)} sandbox: error</title></head>
<body><h1>Authorization error</h1><p id="error">${escapeHtml(error)}</p><p id="error_description">${escapeHtml(description)}</p></body></html>
`;
}
