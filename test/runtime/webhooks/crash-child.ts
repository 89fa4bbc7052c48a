/**
 * A service process that dies: opens the store described by argv[2] (JSON `openStore` options without the keyring),
 * commits an account change with its event (argv[3] is the account id), prints `committed`, and then, depending on
 * argv[4]:
 * - `idle`: does nothing more (the parent SIGKILLs it before any delivery is attempted);
 * - `send`: runs a dispatcher, whose attempt the parent's receiver holds open until it SIGKILLs this process.
 */
import { parseKeyring } from '../../../runtime/crypto/keyring.js';
import { openStore } from '../../../runtime/store/open-store.js';
import { WebhookDispatcher } from '../../../runtime/webhooks/dispatcher.js';

const options = JSON.parse(process.argv[2] ?? '{}');
const accountId = process.argv[3] ?? '';
const mode = process.argv[4] ?? 'idle';
const store = await openStore({ ...options, keyring: parseKeyring(process.env.TEST_KEYRING ?? '') });

await store.setAccountStatus(accountId, 'EXPIRED', 'invalid_grant', { event: { type: 'account.expired', details: { error: 'invalid_grant' } } });
process.stdout.write('committed\n');
if (mode === 'send') {
  const dispatcher = new WebhookDispatcher({ store, urlRefusal: () => null, timeoutMs: 60_000, leaseMs: 90_000 });
  void dispatcher.runOnce();
}
// Stay alive until killed.
setInterval(() => {}, 1000);
