import { describe, expect, it } from 'vitest';
import { ADDRESS_BLOCK_PRIORITY } from '../../../extension/network/task-address-rules';
import { MEDIA_RULE_PRIORITY, TRANSPARENT_GIF } from '../../../extension/network/media-rules';
import { buildTaskRules, headerSite } from '../../../extension/network/task-network-rules';

const URL = 'https://hive.example/members';

describe('per-task network rules', () => {
  it("sets the caller headers on every request of the task tab to the task's own site, main frame included", () => {
    const [rule, ...rest] = buildTaskRules({
      ruleIds: [7, 8],
      tabId: 42,
      url: URL,
      headers: { 'X-Hive': 'queen', Cookie: 'session=royal' },
    });
    expect(rest).toEqual([]);
    expect(rule).toMatchObject({
      id: 7,
      action: {
        type: 'modifyHeaders',
        requestHeaders: [
          { header: 'X-Hive', operation: 'set', value: 'queen' },
          { header: 'Cookie', operation: 'set', value: 'session=royal' },
        ],
      },
      condition: { tabIds: [42], requestDomains: ['hive.example'] },
    });
    expect(rule?.condition.resourceTypes).toContain('main_frame');
    expect(rule?.condition.resourceTypes).toContain('sub_frame');
    expect(rule?.condition.resourceTypes).toContain('image');
    expect(rule?.condition.resourceTypes).toContain('xmlhttprequest');
  });

  it('scopes the headers to the host and its subdomains, a leading www. dropped, and to no other site', () => {
    expect(headerSite('https://www.example.com/a?b')).toBe('example.com');
    expect(headerSite('https://example.com/')).toBe('example.com');
    expect(headerSite('https://WWW.Example.COM./')).toBe('example.com');
    // Not the parent's other subdomains: app.example.com's headers are not for example.com.
    expect(headerSite('https://app.example.com/')).toBe('app.example.com');
    expect(headerSite('https://www.localhost:8080/')).toBe('www.localhost');
    expect(headerSite('http://127.0.0.2:4100/pdf')).toBe('127.0.0.2');
    expect(headerSite('http://[::1]:8080/')).toBe('[::1]');
    expect(headerSite('https://bücher.example/')).toBe('xn--bcher-kva.example');
    const [rule] = buildTaskRules({
      ruleIds: [7, 8],
      tabId: 42,
      url: 'https://www.example.com/',
      headers: { Authorization: 'Bearer secret' },
    });
    expect(rule?.condition).toMatchObject({ tabIds: [42], requestDomains: ['example.com'] });
    expect(rule?.condition).not.toHaveProperty('domainType');
  });

  it('blocks listed domains for third-party requests of the task tab only', () => {
    expect(buildTaskRules({ ruleIds: [7, 8], tabId: 42, url: URL, blockDomains: ['adnxs.com'] })).toEqual([
      {
        id: 8,
        priority: 1,
        action: { type: 'block' },
        condition: { tabIds: [42], requestDomains: ['adnxs.com'], domainType: 'thirdParty' },
      },
    ]);
  });

  it("lifts a launched browser's standing ad block for the task tab, below the header rule", () => {
    const [headerRule, allowRule] = buildTaskRules({
      ruleIds: [7, 8],
      tabId: 42,
      url: URL,
      headers: { 'X-Hive': 'queen' },
      allowAds: true,
    });
    expect(allowRule).toEqual({ id: 8, priority: 2, action: { type: 'allow' }, condition: { tabIds: [42] } });
    // An allow rule switches off modifyHeaders rules of lower priority in the same tab.
    expect(headerRule?.priority).toBeGreaterThan(allowRule?.priority ?? Infinity);
  });

  it("fences a donated browser's task tab into its owner's domains, for navigations and frames", () => {
    expect(
      buildTaskRules({ ruleIds: [7, 8, 9], tabId: 42, url: URL, fenceDomains: ['members.test'] }),
    ).toEqual([
      {
        id: 9,
        priority: 6,
        action: { type: 'block' },
        condition: {
          tabIds: [42],
          resourceTypes: ['main_frame', 'sub_frame'],
          excludedRequestDomains: ['members.test'],
        },
      },
    ]);
    expect(
      buildTaskRules({ ruleIds: [7, 8, 9], tabId: 42, url: URL, fenceDomains: [] })[0]?.condition,
    ).toEqual({
      tabIds: [42],
      resourceTypes: ['main_frame', 'sub_frame'],
    });
  });

  it("fences every tab a donated task's page may open, whatever its initiator, leaving the person's open tabs alone", () => {
    const rules = buildTaskRules({
      ruleIds: [7, 8, 9, 10],
      tabId: 42,
      url: URL,
      fenceDomains: ['members.test'],
      personsTabIds: [1, 2],
    });
    expect(rules.find((rule) => rule.id === 10)).toEqual({
      id: 10,
      priority: 6,
      action: { type: 'block' },
      condition: {
        resourceTypes: ['main_frame', 'sub_frame'],
        excludedRequestDomains: ['members.test'],
        excludedTabIds: [42, 1, 2],
      },
    });
    // No fence, no popup fence: an owner who allows every domain is not fenced.
    expect(
      buildTaskRules({
        ruleIds: [7, 8, 9, 10],
        tabId: 42,
        url: URL,
        fenceDomains: [],
        personsTabIds: [1],
      }).find((rule) => rule.id === 10),
    ).toBeUndefined();
  });

  it('adds nothing for a task without headers or blocking', () => {
    expect(buildTaskRules({ ruleIds: [1, 2], tabId: 3, url: URL, headers: {}, blockDomains: [] })).toEqual(
      [],
    );
  });

  it('leaves images, video, audio and fonts out of a task tab that skips media, and nothing else', () => {
    const rules = buildTaskRules({ ruleIds: [1, 2, 3, 4, 5, 6], tabId: 42, url: URL, blockMedia: true });
    expect(rules).toEqual([
      {
        id: 5,
        priority: MEDIA_RULE_PRIORITY,
        action: { type: 'block' },
        condition: { tabIds: [42], resourceTypes: ['media', 'font'] },
      },
      {
        // Answered, not blocked: Chromium hides an image an extension blocked, and the capture
        // would then leave it out of the page.
        id: 6,
        priority: MEDIA_RULE_PRIORITY,
        action: { type: 'redirect', redirect: { url: TRANSPARENT_GIF } },
        condition: { tabIds: [42], resourceTypes: ['image'] },
      },
    ]);
  });

  it('lifts the standing media block for a task tab that needs media, without lifting address blocks', () => {
    const rules = buildTaskRules({ ruleIds: [1, 2, 3, 4, 5, 6], tabId: 42, url: URL, allowMedia: true });
    expect(rules).toEqual([
      {
        id: 5,
        priority: MEDIA_RULE_PRIORITY,
        action: { type: 'allow' },
        condition: { tabIds: [42], resourceTypes: ['image', 'media', 'font'] },
      },
    ]);
    // At equal priority DNR lets an allow rule win: the address blocks must rank above it.
    expect(ADDRESS_BLOCK_PRIORITY).toBeGreaterThan(MEDIA_RULE_PRIORITY);
  });

  it('keeps the media block when a tab lifts the ad block', () => {
    const rules = buildTaskRules({
      ruleIds: [1, 2, 3, 4, 5, 6],
      tabId: 42,
      url: URL,
      allowAds: true,
      blockMedia: true,
    });
    const adAllow = rules.find((rule) => rule.id === 2);
    const mediaRules = rules.filter((rule) => rule.id === 5 || rule.id === 6);
    expect(mediaRules).toHaveLength(2);
    // Above, not equal: at equal priority the allow rule would win.
    for (const rule of mediaRules) expect(rule.priority).toBeGreaterThan(adAllow?.priority ?? Infinity);
  });
});
