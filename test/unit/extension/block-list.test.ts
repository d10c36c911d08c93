import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseDomainList } from '../../../extension/network/parse-domain-list';

describe('the ad domain list', () => {
  it('parses one domain per line and skips comments and blanks', () => {
    expect(parseDomainList('# header\nAdnxs.com\n\n  criteo.com  \n')).toEqual(['adnxs.com', 'criteo.com']);
  });

  it('ships a deduplicated list of hostnames, attributed in its header', async () => {
    const text = await readFile(
      new URL('../../../extension/public/block-lists/ad-domains.txt', import.meta.url),
      'utf8',
    );
    expect(text.split('\n')[0]).toContain('@adguard/dnr-rulesets');
    const domains = parseDomainList(text);
    expect(domains.length).toBeGreaterThan(10_000);
    expect(new Set(domains).size).toBe(domains.length);
    expect(domains.filter((domain) => !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain))).toEqual([]);
    expect(domains).toContain('adnxs.com');
  });
});
