import { describe, expect, it } from 'vitest';
import {
  ADDRESS_BLOCK_PRIORITY,
  addressRuleCount,
  addressRulePatterns,
  buildAddressRules,
} from '../../../extension/network/task-address-rules';
import { buildTaskRules } from '../../../extension/network/task-network-rules';
import { ipv4CidrRegex, numberRangeRegex } from '../../../shared/url/address-regex';
import { classifyAddress } from '../../../shared/url/classify-address';

const STRICT = { allowPrivateNetworks: false, allowedPrivateHosts: [] as string[] };

type Policy = { allowPrivateNetworks: boolean; allowedPrivateHosts: string[] };
const compiled = new Map<Policy, { priority: number; action: 'block' | 'allow'; hit: RegExp | string[] }[]>();

/** What DNR would do with a canonical URL: the highest-priority matching rule's action. */
function verdict(policy: Policy, url: string): 'block' | 'allow' | 'none' {
  let rules = compiled.get(policy);
  if (rules === undefined) {
    const { block, allow } = addressRulePatterns(policy);
    rules = [
      ...block.map((rule) => ({
        priority: rule.priority,
        action: 'block' as const,
        hit: new RegExp(rule.regexFilter),
      })),
      ...allow.map((rule) => ({
        priority: rule.priority,
        action: 'allow' as const,
        hit: rule.regexFilter === undefined ? (rule.requestDomains ?? []) : new RegExp(rule.regexFilter),
      })),
    ];
    compiled.set(policy, rules);
  }
  const host = new URL(url).hostname;
  const matches = rules.filter(({ hit }) =>
    hit instanceof RegExp
      ? hit.test(url)
      : hit.some((domain) => host === domain || host.endsWith(`.${domain}`)),
  );
  matches.sort((a, b) => b.priority - a.priority);
  return matches[0]?.action ?? 'none';
}

/** Deterministic pseudo-random addresses (xorshift), so a failure can be replayed. */
function* randomIPv4(count: number): Generator<string> {
  let state = 0x2545f491;
  for (let index = 0; index < count; index += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const value = state >>> 0;
    yield [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].join('.');
  }
}

describe('regular expressions for address ranges', () => {
  it('match exactly the numbers of a range', () => {
    for (const [lo, hi] of [
      [16, 31],
      [64, 127],
      [0, 9],
      [250, 255],
      [0, 255],
      [100, 199],
    ] as const) {
      const regex = new RegExp(`^${numberRangeRegex(lo, hi)}$`);
      for (let n = 0; n <= 255; n += 1)
        expect(regex.test(String(n)), `${n} in ${lo}-${hi}`).toBe(n >= lo && n <= hi);
    }
  });

  it('match exactly the addresses of a CIDR range', () => {
    const regex = new RegExp(`^${ipv4CidrRegex('172.16.0.0/12')}$`);
    expect(regex.test('172.16.0.1')).toBe(true);
    expect(regex.test('172.31.255.255')).toBe(true);
    expect(regex.test('172.32.0.0')).toBe(false);
    expect(regex.test('172.15.255.255')).toBe(false);
  });
});

describe('the DNR rules of a task tab', () => {
  it('block every private IPv4 literal the server refuses, and no public one (10,000 samples)', () => {
    for (const address of randomIPv4(10_000)) {
      const kind = classifyAddress(address).kind;
      const expected = kind === 'public' ? 'none' : 'block';
      expect(verdict(STRICT, `http://${address}:8080/path`), address).toBe(expected);
    }
  });

  it.each([
    'http://127.0.0.1/',
    'http://user@10.0.0.1/x',
    'ws://127.0.0.1:9000/socket',
    'http://[::1]/',
    'http://[::]/',
    'http://[::ffff:7f00:1]/',
    'http://[64:ff9b::a00:1]/',
    'http://[fe80::1]/',
    'http://[fd00:ec2::254]/',
    'http://[fc00::1]:81/',
    'http://[ff02::1]/',
    'http://[2001:db8::1]/',
    'http://[2001::1]/',
    'http://[2002:a00:1::]/',
    'http://localhost:3000/',
    'http://localhost./',
    'http://app.localhost/',
    'http://intranet/',
    'http://printer.local/',
    'http://db.internal./',
    'http://nas.home.arpa/',
    'http://metadata.google.internal/',
    'http://169.254.169.254/latest',
    'http://[::ffff:a9fe:a9fe]/',
  ])('block %s', (url) => {
    expect(verdict(STRICT, url)).toBe('block');
  });

  it.each([
    'https://example.com/',
    'https://127.example.com/',
    'http://127.0.0.1.example.com/',
    'https://[2606:4700::1111]/',
    'https://[2a00:1450:4001::1]/',
    'http://8.8.8.8/',
    'https://example.com/?next=http://127.0.0.1/',
    'https://localhost.example.com/',
  ])('leave %s alone', (url) => {
    expect(verdict(STRICT, url)).toBe('none');
  });

  it('with private networks allowed, block metadata endpoints only', () => {
    const open = { allowPrivateNetworks: true, allowedPrivateHosts: [] };
    expect(verdict(open, 'http://127.0.0.1/')).toBe('none');
    expect(verdict(open, 'http://localhost/')).toBe('none');
    expect(verdict(open, 'http://169.254.169.254/')).toBe('block');
    expect(verdict(open, 'http://[fd00:ec2::254]/')).toBe('block');
    expect(verdict(open, 'http://metadata.google.internal/')).toBe('block');
  });

  it('let the allow list through, but never to metadata', () => {
    const policy = {
      allowPrivateNetworks: false,
      allowedPrivateHosts: ['10.1.0.0/16', 'wiki.corp', '169.254.0.0/16', 'fd12::5'],
    };
    expect(verdict(policy, 'http://10.1.200.3/')).toBe('allow');
    expect(verdict(policy, 'http://10.2.0.1/')).toBe('block');
    expect(verdict(policy, 'http://wiki.corp/')).toBe('allow');
    expect(verdict(policy, 'http://docs.wiki.corp/')).toBe('allow');
    expect(verdict(policy, 'http://[fd12::5]/')).toBe('allow');
    expect(verdict(policy, 'http://169.254.1.1/')).toBe('allow');
    expect(verdict(policy, 'http://169.254.169.254/')).toBe('block');
  });

  it('are scoped to the tab, cover every resource type, and use the ids they were given', () => {
    const count = addressRuleCount(undefined);
    const ids = Array.from({ length: count }, (_, index) => 100 + index);
    const rules = buildAddressRules({ ruleIds: ids, tabId: 7, policy: undefined });
    expect(rules.map((rule) => rule.id)).toEqual(ids);
    for (const rule of rules) {
      expect(rule.condition.tabIds).toEqual([7]);
      expect(rule.condition.resourceTypes).toContain('main_frame');
      expect(rule.condition.resourceTypes).toContain('websocket');
    }
    expect(() => buildAddressRules({ ruleIds: ids.slice(1), tabId: 7, policy: undefined })).toThrow();
  });

  it('outrank the allow rule that lifts ad blocking for a tab, and rank below the header rule', () => {
    const taskRules = buildTaskRules({
      ruleIds: [1, 2, 3],
      tabId: 7,
      url: 'https://example.com/',
      headers: { a: 'b' },
      allowAds: true,
    });
    const adsAllow = taskRules.find((rule) => rule.action.type === 'allow');
    const headers = taskRules.find((rule) => rule.action.type === 'modifyHeaders');
    expect(ADDRESS_BLOCK_PRIORITY).toBeGreaterThan(adsAllow?.priority ?? Infinity);
    const policy = { allowPrivateNetworks: false, allowedPrivateHosts: ['10.0.0.0/8', 'wiki.corp'] };
    const { block, allow } = addressRulePatterns(policy);
    for (const rule of [...block, ...allow]) expect(headers?.priority).toBeGreaterThan(rule.priority);
  });

  it("never lift a donated browser's domain fence", () => {
    const [fence] = buildTaskRules({
      ruleIds: [1, 2, 3],
      tabId: 7,
      url: 'https://example.com/',
      fenceDomains: ['example.com'],
    });
    const policy = { allowPrivateNetworks: false, allowedPrivateHosts: ['10.0.0.0/8', 'wiki.corp'] };
    for (const rule of addressRulePatterns(policy).allow)
      expect(fence?.priority).toBeGreaterThan(rule.priority);
  });
});
