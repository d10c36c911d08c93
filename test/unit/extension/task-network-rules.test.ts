import { describe, expect, it } from 'vitest';
import { buildTaskRules } from '../../../extension/utils/task-network-rules';

describe('per-task network rules', () => {
  it('sets the caller headers on every request of the task tab, main frame included', () => {
    const [rule, ...rest] = buildTaskRules({
      ruleIds: [7, 8],
      tabId: 42,
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
      condition: { tabIds: [42] },
    });
    expect(rule?.condition.resourceTypes).toContain('main_frame');
    expect(rule?.condition.resourceTypes).toContain('xmlhttprequest');
  });

  it('blocks listed domains for third-party requests of the task tab only', () => {
    expect(buildTaskRules({ ruleIds: [7, 8], tabId: 42, blockDomains: ['adnxs.com'] })).toEqual([
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
      headers: { 'X-Hive': 'queen' },
      allowAds: true,
    });
    expect(allowRule).toEqual({ id: 8, priority: 2, action: { type: 'allow' }, condition: { tabIds: [42] } });
    // An allow rule switches off modifyHeaders rules of lower priority in the same tab.
    expect(headerRule?.priority).toBeGreaterThan(allowRule?.priority ?? Infinity);
  });

  it("fences a donated browser's task tab into its owner's domains, for navigations only", () => {
    expect(buildTaskRules({ ruleIds: [7, 8, 9], tabId: 42, fenceDomains: ['members.test'] })).toEqual([
      {
        id: 9,
        priority: 5,
        action: { type: 'block' },
        condition: { tabIds: [42], resourceTypes: ['main_frame'], excludedRequestDomains: ['members.test'] },
      },
    ]);
    expect(buildTaskRules({ ruleIds: [7, 8, 9], tabId: 42, fenceDomains: [] })[0]?.condition).toEqual({
      tabIds: [42],
      resourceTypes: ['main_frame'],
    });
  });

  it('adds nothing for a task without headers or blocking', () => {
    expect(buildTaskRules({ ruleIds: [1, 2], tabId: 3, headers: {}, blockDomains: [] })).toEqual([]);
  });
});
