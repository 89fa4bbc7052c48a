/**
 * The check of a host name's resolved address at connect time. The URL policies (`connection-override-policy.ts`,
 * `webhooks/endpoint-url.ts`) judge a URL by its text; a public name whose DNS answer is, or later becomes (DNS
 * rebinding), an internal address passes that check. So the undici Agents that send to such URLs get a `lookup`
 * connect option (undici hands its `connect` options to `net.connect` / `tls.connect`) that wraps `dns.lookup` and
 * refuses an answer the same policy would refuse as the URL's host. It runs once per new connection, after the name
 * is resolved and before the socket connects, so the address checked is the address connected to; requests on a
 * kept-alive connection pay nothing. An address literal is never looked up by Node: its text was judged already.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';

export const FORBIDDEN_ADDRESS = 'ERR_FORBIDDEN_ADDRESS';

/** A host name resolved to an address the policy refuses. Names the host and the address, nothing else. */
export class ForbiddenAddressError extends Error {
  readonly code = FORBIDDEN_ADDRESS;

  constructor(
    readonly hostname: string,
    readonly address: string,
    /** The policy's refusal of that address as a URL host ("is not allowed: ..."). */
    readonly refusal: string,
  ) {
    super(`${hostname} resolved to ${address}, which ${refusal}`);
    this.name = 'ForbiddenAddressError';
  }
}

/**
 * A `lookup` for `net.connect` that resolves with `lookup` (default `dns.lookup`; a test passes one that answers
 * made-up names) and fails with {@link ForbiddenAddressError} when any address of the answer is refused by `refusal`
 * (all of them are checked: the socket may try each).
 * @param refusal why a connection to `address`, which `hostname` resolved to, is refused, or null.
 */
export function guardedLookup(refusal: (hostname: string, address: string) => string | null, lookup: LookupFunction = dnsLookup as LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, answer, family) => {
      if (error) return callback(error, '');
      const addresses: LookupAddress[] = typeof answer === 'string' ? [{ address: answer, family: family ?? 4 }] : answer;
      for (const { address } of addresses) {
        const why = refusal(hostname, address);
        if (why !== null) return callback(new ForbiddenAddressError(hostname, address, why), '');
      }
      const [first] = addresses;
      if (options.all === true) callback(null, addresses);
      else if (first === undefined) callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
      else callback(null, first.address, first.family);
    });
  };
}
