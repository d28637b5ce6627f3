import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isNonPublicAddress } from '@edu/domain';

/** Resolves a host name to every address (the system resolver by default; tests substitute one). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

/** Raised when a name resolves to an address deliveries may not reach. */
export class BlockedAddressError extends Error {
  readonly code = 'E_BLOCKED_TARGET';
  constructor(hostname: string, address: string) {
    super(`${hostname} resolves to ${address}, which is not a public address`);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for sockets (webhook deliveries; sign-in's requests to tenants' identity providers)
 * that checks every address a name resolves to and hands the socket only the addresses it checked, so the address connected to is the address allowed (no second
 * resolution an attacker's DNS could answer differently). Any non-public answer refuses the name.
 * `onResolved` learns which address was used, for the attempt log.
 */
export function guardedLookup(
  resolver: Resolver,
  allowPrivate: boolean,
  onResolved: (hostname: string, address: string) => void,
) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    resolver(hostname)
      .then((addresses) => {
        const blocked = allowPrivate ? undefined : addresses.find((a) => isNonPublicAddress(a.address));
        if (blocked) return callback(new BlockedAddressError(hostname, blocked.address), '');
        if (addresses.length === 0)
          return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
        onResolved(hostname, addresses[0].address);
        if (options.all) return callback(null, addresses);
        return callback(null, addresses[0].address, addresses[0].family);
      })
      .catch((err: NodeJS.ErrnoException) => callback(err, ''));
  };
}
