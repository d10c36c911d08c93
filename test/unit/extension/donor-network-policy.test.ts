import { describe, expect, it } from 'vitest';
import { donorNetworkPolicy } from '../../../extension/network/donor-network-policy';
import { refuseAddress, refuseHost } from '../../../shared/url/network-policy';
import { parsePrivateAllowList } from '../../../shared/url/private-allow-list';

const STRICT = { allowPrivateNetworks: false, allowedPrivateHosts: [] };

describe("a donated browser's network policy", () => {
  it("lets the owner's allowed domains reach private addresses, and nothing else", () => {
    const policy = donorNetworkPolicy(STRICT, ['*.corp.test', 'wiki', 'Bücher.example', 'not a host']);
    expect(policy).toEqual({
      allowPrivateNetworks: false,
      allowedPrivateHosts: ['corp.test', 'wiki', 'xn--bcher-kva.example'],
    });
    const list = parsePrivateAllowList(policy.allowedPrivateHosts);
    // An intranet name (and its subdomains) resolving to a private address, a single-label name.
    expect(refuseAddress(policy, list, '10.1.2.3', 'intranet.corp.test')).toBeUndefined();
    expect(refuseHost(policy, list, new URL('http://wiki/'))).toBeUndefined();
    // Anything outside: private addresses under other names, private literals, local names.
    expect(refuseAddress(policy, list, '10.1.2.3', 'evil.example')).toBe('private-network');
    expect(refuseHost(policy, list, new URL('http://127.0.0.1/'))).toBe('private-network');
    expect(refuseHost(policy, list, new URL('http://printer.local/'))).toBe('private-network');
    // Cloud metadata stays out even under an allowed name.
    expect(refuseAddress(policy, list, '169.254.169.254', 'intranet.corp.test')).toBe('metadata');
  });

  it("keeps the server's own allow list, and a policy with private networks open as it is", () => {
    expect(
      donorNetworkPolicy({ allowPrivateNetworks: false, allowedPrivateHosts: ['10.0.0.0/8'] }, ['corp.test']),
    ).toEqual({ allowPrivateNetworks: false, allowedPrivateHosts: ['10.0.0.0/8', 'corp.test'] });
    const open = { allowPrivateNetworks: true, allowedPrivateHosts: [] };
    expect(donorNetworkPolicy(open, ['corp.test'])).toBe(open);
    expect(donorNetworkPolicy(undefined, [])).toEqual(STRICT);
  });
});
