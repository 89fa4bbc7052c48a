/**
 * What a disconnect tells a person about the provider's side: one wording for the CLI and the dashboard, from the
 * `ProviderRevocation` the disconnect answered (never a token, only the outcome and the provider's status).
 */
import type { ProviderRevocation, RevocationCounts } from './api.js';
import type { ConnectorName } from './types.js';

/** Where a user ends this app's access by hand at each provider. */
const REVOKE_BY_HAND: Record<ConnectorName, string> = {
  calendar: "the Google Account's security settings (Third-party apps & services)",
  sheets: "the Google Account's security settings (Third-party apps & services)",
  docs: "the Google Account's security settings (Third-party apps & services)",
  crm: "HubSpot's settings (Integrations > Connected Apps)",
  workspace: "Notion's settings (Connections)",
};

export const REVOCATION_OUTCOMES: readonly ProviderRevocation['outcome'][] = ['revoked', 'refused', 'unreachable', 'not_offered', 'not_sent', 'no_tokens'];

/** After "<identifier> disconnected: ": what happened to its tokens, here and at the provider. */
export function revocationSentence(r: ProviderRevocation, connector: ConnectorName): string {
  const byHand = `revoke this app's access in ${REVOKE_BY_HAND[connector]}`;
  switch (r.outcome) {
    case 'revoked':
      return 'its tokens are deleted here and the provider revoked them.';
    case 'refused':
      return `its tokens are deleted here; the provider refused to revoke them${r.provider_status === null ? '' : ` (HTTP ${r.provider_status})`}: ${byHand}.`;
    case 'unreachable':
      return `its tokens are deleted here; the provider could not be reached to revoke them: ${byHand}.`;
    case 'not_offered':
      return `its tokens are deleted here; the provider offers no revocation endpoint: ${byHand}.`;
    case 'not_sent':
      return `its tokens are deleted here; no revocation could be sent to the provider (the connection's revocation URL is refused by policy, or its client secret or the stored tokens cannot be decrypted): ${byHand}.`;
    case 'no_tokens':
      return 'it held no tokens, so there was nothing to revoke.';
  }
}

/** What a connection's deletion did at the provider, counted by outcome; empty when no account held tokens. */
export function revocationCountsSentence(counts: RevocationCounts, connector: ConnectorName): string {
  const parts = [
    counts.revoked > 0 ? `${counts.revoked} revoked by the provider` : '',
    counts.refused > 0 ? `${counts.refused} refused by the provider` : '',
    counts.unreachable > 0 ? `${counts.unreachable} not revoked (the provider could not be reached)` : '',
    counts.not_offered > 0 ? `${counts.not_offered} not revoked (the provider offers no revocation endpoint)` : '',
    counts.not_sent > 0 ? `${counts.not_sent} not revoked (no revocation could be sent: a revocation URL refused by policy, or an unreadable client secret or tokens)` : '',
  ].filter(Boolean);
  if (parts.length === 0) return '';
  const open = counts.refused + counts.unreachable + counts.not_offered + counts.not_sent;
  return `Tokens deleted here; at the provider: ${parts.join(', ')}.${open > 0 ? ` For those not revoked, the users should revoke this app's access in ${REVOKE_BY_HAND[connector]}.` : ''}`;
}
