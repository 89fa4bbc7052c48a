/**
 * Standard Webhooks signing, through the reference `standardwebhooks` package: `webhook-id` (the event id, the same on
 * every retry), `webhook-timestamp` (seconds), and `webhook-signature`, a space-separated list of `v1,<base64
 * HMAC-SHA256>` signatures, one per secret in force. During a rotation's overlap both the new and the previous
 * secret sign, so a receiver still holding the old secret keeps verifying.
 *
 * @see https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** The spec's secret form: `whsec_` and the base64 of 24 to 64 random bytes (32 here). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three headers for `payload` (the exact body sent), signed with each of `secrets`. */
export function signWebhook(id: string, at: Date, payload: string, secrets: readonly string[]): SignedHeaders {
  if (secrets.length === 0) throw new Error('signWebhook: no secret to sign with');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, at, payload)).join(' '),
  };
}
