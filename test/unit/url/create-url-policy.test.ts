import { describe, expect, it } from 'vitest';
import {
  createUrlPolicy,
  type UrlRefusalReason,
} from '../../../server/platform/url-policy/create-url-policy';
import { stubLookup } from '../../helpers/stub-lookup';

/** Stand-ins for DNS. Nothing here is looked up for real. */
const DNS: Record<string, readonly string[]> = {
  'example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'example.com.': ['93.184.215.14'],
  'evil.com': ['203.0.114.7'],
  'dns64.example.com': ['64:ff9b::5db8:d70e'],
  // nip.io-style wildcard DNS: the name spells the address it resolves to.
  '127.0.0.1.nip.io': ['127.0.0.1'],
  '10.0.0.1.sslip.io': ['10.0.0.1'],
  // Firecrawl #2070: an A record in 172.16/12 got through a hand-written range table.
  'a.172-16.example.com': ['172.16.0.5'],
  'one-bad-apple.example.com': ['93.184.215.14', '10.0.0.7', '8.8.8.8'],
  'aaaa-loopback.example.com': ['2606:4700::1111', '::1'],
  // Firecrawl #4287: a mapped answer was misread until it was unmapped.
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'ula.example.com': ['fd12:3456::1'],
  'imds.example.com': ['169.254.169.254'],
  'instance-data': ['169.254.169.254'],
  // A single-label name the network's resolver completes (a search domain): a real local name.
  fileserver: ['10.20.30.40'],
  'no-answers.example.com': [],
  'garbage.example.com': ['not-an-address'],
};

type Expected = 'allowed' | UrlRefusalReason;

/** The A2 corpus: every vector is refused in the default configuration. */
const BLOCKED: readonly (readonly [url: string, reason: UrlRefusalReason])[] = [
  // IPv4 spellings, canonicalised by the URL parser.
  ['http://0x7f.1/', 'private-network'],
  ['http://017700000001/', 'private-network'],
  ['http://2130706433/', 'private-network'],
  ['http://127.1/', 'private-network'],
  ['http://127.0.1/', 'private-network'],
  ['http://0177.0.0.1/', 'private-network'],
  ['http://0x7f.0.0.1/', 'private-network'],
  ['http://0x7f.0.1/', 'private-network'],
  ['http://0x7f000001/', 'private-network'],
  ['http://127.000.000.001/', 'private-network'],
  ['http://127。0。0。1/', 'private-network'],
  ['http://①②⑦.0.0.1/', 'private-network'],
  ['http://%31%32%37.0.0.1/', 'private-network'],
  ['http://127.0.0.1./', 'private-network'],
  ['https://127.0.0.1:8443/admin', 'private-network'],
  ['http://0/', 'private-network'],
  ['http://0.0.0.0/', 'private-network'],
  ['http://012.0.0.1/', 'private-network'],
  // IPv6 loopback and unspecified, and IPv4 inside IPv6.
  ['http://[::]/', 'private-network'],
  ['http://[::1]/', 'private-network'],
  ['http://[0:0:0:0:0:0:0:1]/', 'private-network'],
  ['http://[0000:0000:0000:0000:0000:0000:0000:0001]/', 'private-network'],
  ['http://[::ffff:127.0.0.1]/', 'private-network'],
  ['http://[::ffff:7f00:1]/', 'private-network'],
  ['http://[0:0:0:0:0:ffff:10.0.0.1]/', 'private-network'],
  ['http://[::127.0.0.1]/', 'private-network'],
  ['http://[64:ff9b::127.0.0.1]/', 'private-network'],
  ['http://[64:ff9b::c0a8:101]/', 'private-network'],
  ['http://[64:ff9b:1::a00:1]/', 'private-network'],
  ['http://[2002:7f00:1::]/', 'private-network'],
  ['http://[2002:c0a8:101::1]/', 'private-network'],
  ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', 'private-network'],
  ['http://[2001:0:a00:1:8000:63bf:f7f7:f7f7]/', 'private-network'],
  // IPv6 special ranges.
  ['http://[fe80::1]/', 'private-network'],
  ['http://[febf:ffff::1]/', 'private-network'],
  ['http://[fec0::1]/', 'private-network'],
  ['http://[fc00::1]/', 'private-network'],
  ['http://[fd12:3456::1]/', 'private-network'],
  ['http://[ff02::1]/', 'private-network'],
  ['http://[100::1]/', 'private-network'],
  ['http://[2001:db8::1]/', 'private-network'],
  // Cloud metadata.
  ['http://169.254.169.254/latest/meta-data/', 'metadata'],
  ['http://2852039166/latest/meta-data/', 'metadata'],
  ['http://0xa9.0xfe.0xa9.0xfe/', 'metadata'],
  ['http://169.254.170.2/v2/credentials', 'metadata'],
  ['http://[fd00:ec2::254]/latest/meta-data/', 'metadata'],
  ['http://[0:0:0:0:0:ffff:a9fe:a9fe]/', 'metadata'],
  ['http://[64:ff9b::a9fe:a9fe]/', 'metadata'],
  ['http://100.100.100.200/latest/meta-data/', 'metadata'],
  ['http://metadata.google.internal/computeMetadata/v1/', 'metadata'],
  ['http://metadata.google.internal./computeMetadata/v1/', 'metadata'],
  ['http://metadata/computeMetadata/v1/', 'metadata'],
  // IPv4 special ranges, with the edges that hand-written tables get wrong.
  ['http://10.0.0.0/', 'private-network'],
  ['http://10.255.255.255/', 'private-network'],
  ['http://172.16.0.0/', 'private-network'],
  ['http://172.16.0.5/', 'private-network'],
  ['http://172.31.255.255/', 'private-network'],
  ['http://192.168.0.1/', 'private-network'],
  ['http://100.64.0.0/', 'private-network'],
  ['http://100.127.255.255/', 'private-network'],
  ['http://198.18.0.0/', 'private-network'],
  ['http://198.19.255.255/', 'private-network'],
  ['http://169.254.0.1/', 'private-network'],
  ['http://192.0.2.1/', 'private-network'],
  ['http://224.0.0.1/', 'private-network'],
  ['http://239.255.255.250/', 'private-network'],
  ['http://255.255.255.255/', 'private-network'],
  ['http://240.0.0.1/', 'private-network'],
  // Local names.
  ['http://localhost/', 'private-network'],
  ['http://localhost./', 'private-network'],
  ['http://LOCALHOST:3000/', 'private-network'],
  ['http://api.localhost/', 'private-network'],
  ['http://ｌｏｃａｌｈｏｓｔ/', 'private-network'],
  ['http://fileserver/', 'private-network'],
  ['http://instance-data/', 'metadata'],
  // A single label nothing resolves: most likely a typo, said as such rather than as a private host.
  ['http://intranet/', 'not-a-host'],
  ['http://printer.local/', 'private-network'],
  ['http://db.internal/', 'private-network'],
  ['http://router.home.arpa/', 'private-network'],
  ['http://nas.lan/', 'private-network'],
  // Names whose DNS answers are private.
  ['http://127.0.0.1.nip.io/', 'private-network'],
  ['http://10.0.0.1.sslip.io/', 'private-network'],
  ['http://a.172-16.example.com/', 'private-network'],
  ['http://one-bad-apple.example.com/', 'private-network'],
  ['http://aaaa-loopback.example.com/', 'private-network'],
  ['http://mapped.example.com/', 'private-network'],
  ['http://ula.example.com/', 'private-network'],
  ['http://imds.example.com/', 'metadata'],
  // Userinfo, however it is smuggled in.
  ['http://a@127.0.0.1:80@evil.com/', 'userinfo'],
  ['http://user:pass@example.com/', 'userinfo'],
  ['http://:secret@example.com/', 'userinfo'],
  ['http://example.com@127.0.0.1/', 'userinfo'],
  ['http://1.1.1.1 &@2.2.2.2# @3.3.3.3/', 'userinfo'],
  // Schemes other than http(s).
  ['file:///etc/passwd', 'scheme'],
  ['file://localhost/etc/passwd', 'scheme'],
  ['gopher://127.0.0.1:6379/_INFO', 'scheme'],
  ['data:text/html,<script>alert(1)</script>', 'scheme'],
  ['ftp://example.com/', 'scheme'],
  ['ws://example.com/', 'scheme'],
  ['javascript:fetch("http://127.0.0.1/")', 'scheme'],
  ['view-source:http://127.0.0.1/', 'scheme'],
  // DNS that does not answer.
  ['http://does-not-exist.example/', 'dns'],
  ['http://no-answers.example.com/', 'dns'],
  ['http://garbage.example.com/', 'dns'],
];

const ALLOWED: readonly string[] = [
  'http://8.8.8.8/',
  'https://1.1.1.1/dns-query',
  'http://[2606:4700::1111]/',
  'http://[2001:4860:4860::8888]/',
  'http://172.15.255.255/',
  'http://172.32.0.0/',
  'http://100.63.255.255/',
  'http://100.128.0.0/',
  'http://198.17.255.255/',
  'http://198.20.0.0/',
  'http://11.0.0.1/',
  'http://223.255.255.255/',
  'http://[::ffff:8.8.8.8]/',
  'http://[64:ff9b::8.8.8.8]/',
  'http://[2002:808:808::1]/',
  'https://example.com/',
  'https://example.com./',
  'http://dns64.example.com/',
];

function policy(options: { allowPrivateNetworks?: boolean; allowMetadata?: boolean } = {}) {
  const stub = stubLookup(DNS);
  const { check } = createUrlPolicy({
    allowPrivateNetworks: options.allowPrivateNetworks ?? false,
    allowMetadata: options.allowMetadata,
    lookup: stub.lookup,
  });
  return {
    calls: stub.calls,
    verdictOf: async (url: string): Promise<Expected> => {
      const verdict = await check(new URL(url));
      return verdict.allowed ? 'allowed' : verdict.reason;
    },
  };
}

/** Hosts that are IP literals after parsing, which must never reach the resolver. */
const isLiteral = (url: string) => /^(\[.*\]|[\d.]+)$/.test(new URL(url).hostname);

describe('createUrlPolicy, by default', () => {
  it('has a corpus of at least 60 blocked vectors', () => {
    expect(BLOCKED.length).toBeGreaterThanOrEqual(60);
  });

  it.each(BLOCKED)('refuses %s (%s)', async (url, reason) => {
    const { verdictOf, calls } = policy();
    expect(await verdictOf(url)).toBe(reason);
    if (isLiteral(url)) expect(calls).toEqual([]);
  });

  it.each(ALLOWED)('allows %s', async (url) => {
    const { verdictOf, calls } = policy();
    expect(await verdictOf(url)).toBe('allowed');
    if (isLiteral(url)) expect(calls).toEqual([]);
  });

  it('goes where the URL parser goes when an @ hides behind a backslash or a fragment', async () => {
    for (const url of ['http://evil.com\\@127.0.0.1/', 'http://evil.com#@127.0.0.1/']) {
      expect(new URL(url).hostname).toBe('evil.com');
      const { verdictOf, calls } = policy();
      expect(await verdictOf(url)).toBe('allowed');
      expect(calls).toEqual(['evil.com']);
    }
    // Before the backslash is the host, so here the literal wins.
    expect(await policy().verdictOf('http://127.1.1.1:80\\@127.2.2.2:80/')).toBe('private-network');
  });

  it('resolves the name once and checks every answer', async () => {
    const { verdictOf, calls } = policy();
    await verdictOf('http://one-bad-apple.example.com/');
    expect(calls).toEqual(['one-bad-apple.example.com']);
  });

  it('says which address was private and how to allow it', async () => {
    const { check } = createUrlPolicy({ allowPrivateNetworks: false, lookup: stubLookup(DNS).lookup });
    expect(await check(new URL('http://127.0.0.1.nip.io/'))).toEqual({
      allowed: false,
      reason: 'private-network',
      message:
        'URL resolves to a private or loopback address (127.0.0.1), which Tabhive does not fetch by default; to reach it, list just this host in ALLOWED_PRIVATE_HOSTS, or pair a donated browser that allows it (docs/donated-browsers.md); ALLOW_PRIVATE_NETWORKS=true opens every private and loopback address the server can reach (its own network and admin ports) to every API key',
    });
    expect(await check(new URL('http://[::1]:8080/'))).toMatchObject({
      message: expect.stringContaining('[::1]'),
    });
    expect(await check(new URL('http://fileserver/'))).toMatchObject({
      message: expect.stringContaining('local or intranet host name (fileserver)'),
    });
  });

  it.each(['http://examplecom/', 'http://not-a-url/', 'https://wwwexamplecom/page'])(
    'says that %s looks wrong, without advice to open private networks',
    async (url) => {
      const { check } = createUrlPolicy({ allowPrivateNetworks: false, lookup: stubLookup(DNS).lookup });
      const verdict = await check(new URL(url));
      expect(verdict).toEqual({
        allowed: false,
        reason: 'not-a-host',
        message: `The URL looks wrong: "${new URL(url).hostname}" is not a host name on the internet (public names have a dot, as in example.com), and no local name answers to it. Check the URL for a typo.`,
      });
    },
  );

  it("uses Firecrawl's wording when DNS fails", async () => {
    const { check } = createUrlPolicy({ allowPrivateNetworks: false, lookup: stubLookup(DNS).lookup });
    expect(await check(new URL('https://does-not-exist.example/page'))).toEqual({
      allowed: false,
      reason: 'dns',
      message:
        'DNS resolution failed for hostname: does-not-exist.example. Please check if the domain is valid and accessible.',
    });
  });
});

describe('createUrlPolicy with allowPrivateNetworks', () => {
  it.each([
    'http://127.0.0.1/',
    'http://10.1.2.3:8080/',
    'http://192.168.1.1/',
    'http://[::1]/',
    'http://[fd12:3456::1]/',
    'http://localhost:3000/',
    'http://api.localhost/',
  ])('allows %s', async (url) => {
    const { verdictOf } = policy({ allowPrivateNetworks: true });
    expect(await verdictOf(url)).toBe('allowed');
  });

  it('allows private literals without asking DNS', async () => {
    const { verdictOf, calls } = policy({ allowPrivateNetworks: true });
    expect(await verdictOf('http://172.16.0.5/')).toBe('allowed');
    expect(await verdictOf('http://[::ffff:10.0.0.1]/')).toBe('allowed');
    expect(calls).toEqual([]);
  });

  it('allows names that resolve privately, or that the server cannot resolve at all', async () => {
    const { verdictOf } = policy({ allowPrivateNetworks: true });
    expect(await verdictOf('http://127.0.0.1.nip.io/')).toBe('allowed');
    expect(await verdictOf('http://one-bad-apple.example.com/')).toBe('allowed');
    expect(await verdictOf('http://intranet/')).toBe('allowed');
    expect(await verdictOf('http://wiki.corp.example/')).toBe('allowed');
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://2852039166/',
    'http://[fd00:ec2::254]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://100.100.100.200/',
    'http://metadata.google.internal/',
    'http://metadata/',
    'http://imds.example.com/',
    'http://instance-data/latest/meta-data/',
  ])('still refuses the metadata endpoint %s', async (url) => {
    const { verdictOf } = policy({ allowPrivateNetworks: true });
    expect(await verdictOf(url)).toBe('metadata');
  });

  it('still refuses other schemes and userinfo', async () => {
    const { verdictOf } = policy({ allowPrivateNetworks: true });
    expect(await verdictOf('file:///etc/passwd')).toBe('scheme');
    expect(await verdictOf('http://a@127.0.0.1:80@evil.com/')).toBe('userinfo');
  });

  it('explains that metadata stays blocked', async () => {
    const { check } = createUrlPolicy({ allowPrivateNetworks: true, lookup: stubLookup(DNS).lookup });
    expect(await check(new URL('http://imds.example.com/'))).toEqual({
      allowed: false,
      reason: 'metadata',
      message:
        'URL points to a cloud metadata endpoint (imds.example.com resolves to 169.254.169.254); these stay blocked even with ALLOW_PRIVATE_NETWORKS=true',
    });
  });

  it('allows metadata, without any DNS, only when allowMetadata is also set', async () => {
    const { verdictOf, calls } = policy({ allowPrivateNetworks: true, allowMetadata: true });
    for (const url of [
      'http://169.254.169.254/',
      'http://[fd00:ec2::254]/',
      'http://metadata.google.internal/',
      'http://imds.example.com/',
      'http://does-not-exist.example/',
    ]) {
      expect(await verdictOf(url)).toBe('allowed');
    }
    expect(calls).toEqual([]);
  });
});

describe('createUrlPolicy with allowMetadata alone', () => {
  it('allows metadata endpoints but no other private target', async () => {
    const { verdictOf } = policy({ allowMetadata: true });
    expect(await verdictOf('http://169.254.169.254/')).toBe('allowed');
    expect(await verdictOf('http://imds.example.com/')).toBe('allowed');
    expect(await verdictOf('http://169.254.1.1/')).toBe('private-network');
    expect(await verdictOf('http://127.0.0.1/')).toBe('private-network');
  });
});

describe('createUrlPolicy with an allow list (ALLOWED_PRIVATE_HOSTS)', () => {
  const { check, networkPolicy } = createUrlPolicy({
    allowPrivateNetworks: false,
    allowedPrivateHosts: ['10.0.0.0/24', 'a.172-16.example.com', 'intranet', '169.254.0.0/16'],
    lookup: stubLookup(DNS).lookup,
  });
  const verdictOf = async (url: string) => {
    const verdict = await check(new URL(url));
    return verdict.allowed ? 'allowed' : verdict.reason;
  };

  it('allows only the listed ranges and names, and tells the browser the same', async () => {
    expect(await verdictOf('http://10.0.0.1/')).toBe('allowed');
    expect(await verdictOf('http://10.0.0.1.sslip.io/')).toBe('allowed');
    expect(await verdictOf('http://10.0.1.1/')).toBe('private-network');
    expect(await verdictOf('http://a.172-16.example.com/')).toBe('allowed');
    expect(await verdictOf('http://intranet/')).toBe('allowed');
    expect(await verdictOf('http://fileserver/')).toBe('private-network');
    expect(await verdictOf('http://wiki/')).toBe('not-a-host');
    expect(await verdictOf('http://127.0.0.1.nip.io/')).toBe('private-network');
    expect(await verdictOf('http://one-bad-apple.example.com/')).toBe('allowed'); // 10.0.0.7 is listed
    expect(await verdictOf('http://aaaa-loopback.example.com/')).toBe('private-network');
    expect(networkPolicy).toEqual({
      allowPrivateNetworks: false,
      allowedPrivateHosts: ['10.0.0.0/24', 'a.172-16.example.com', 'intranet', '169.254.0.0/16'],
    });
  });

  it('never allows metadata, even inside a listed range', async () => {
    expect(await verdictOf('http://169.254.1.1/')).toBe('allowed');
    expect(await verdictOf('http://169.254.169.254/')).toBe('metadata');
    expect(await verdictOf('http://imds.example.com/')).toBe('metadata');
  });
});
