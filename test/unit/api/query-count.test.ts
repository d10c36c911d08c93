import { describe, expect, it } from 'vitest';
import { queryCount } from '../../../shared/api/query-count';
import { AgentListQuery } from '../../../shared/api/v2/agent-request';
import { MonitorCheckQuery, MonitorListQuery } from '../../../shared/api/v2/monitor-request';

describe('whole numbers in query strings', () => {
  it('reads decimal digits and refuses anything else, the empty value included', () => {
    const count = queryCount(0, 100);
    expect(count.parse('42')).toBe(42);
    for (const value of ['', ' ', '0x10', '1e2', '-1', '1.5', '101']) {
      expect(count.safeParse(value).success, JSON.stringify(value)).toBe(false);
    }
  });

  it('refuses `?offset=` on the monitor list and `?skip=` on a check, and defaults absent ones', () => {
    expect(MonitorListQuery.safeParse({ limit: '41', offset: '' }).success).toBe(false);
    expect(MonitorCheckQuery.safeParse({ skip: '' }).success).toBe(false);
    expect(MonitorListQuery.parse({})).toEqual({ limit: 50, offset: 0 });
  });

  it('refuses an empty `?before=` on the agent list', () => {
    expect(AgentListQuery.safeParse({ before: '' }).success).toBe(false);
    expect(AgentListQuery.parse({ before: '1700000000000' })).toEqual({ before: 1_700_000_000_000 });
  });
});
