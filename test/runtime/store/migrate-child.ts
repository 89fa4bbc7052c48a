/**
 * A separate process for the contract suite: opens the store described by argv[2] (JSON `openStore` options without
 * the keyring), which runs the migrations, then does what argv[3] asks and prints a JSON result.
 */
import { parseKeyring } from '../../../runtime/crypto/keyring.js';
import { openStore } from '../../../runtime/store/open-store.js';

const options = JSON.parse(process.argv[2] ?? '{}');
const action = process.argv[3] ?? 'migrate';
const keyring = parseKeyring(process.env.TEST_KEYRING ?? '');

const store = await openStore({ ...options, keyring });
let result: unknown = null;
if (action === 'lease') {
  // argv[4]: account id; races the parent's other children for the lease.
  result = await store.tryAcquireRefreshLease(process.argv[4] ?? '', `child-${process.pid}`, 60_000);
}
await store.close();
process.stdout.write(JSON.stringify({ ok: true, result }));
