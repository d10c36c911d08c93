import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';

/**
 * A `lookup` for net.connect and http.request that answers with addresses already resolved and
 * checked, whatever name it is asked: the connection goes where the check looked, never to a
 * second answer of the same name.
 */
export function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  const pinned = [...addresses];
  return (_hostname, options, callback) => {
    const first = pinned[0];
    if (first === undefined) {
      callback(new Error('no address'), '', 4);
      return;
    }
    if (typeof options === 'object' && options.all === true) {
      (callback as unknown as (err: null, addresses: LookupAddress[]) => void)(null, pinned);
    } else callback(null, first.address, first.family);
  };
}
