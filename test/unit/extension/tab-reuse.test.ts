import { describe, expect, it } from 'vitest';
import { leavesTabClean, sameDocument } from '../../../extension/tabs/tab-reuse';

const spec = { url: 'https://a.test/', waitForMs: 0 };

describe('which tasks give their tab back to the pool', () => {
  it('takes back tabs of plain tasks, with or without headers, ads or a wait', () => {
    expect(leavesTabClean(spec)).toBe(true);
    expect(leavesTabClean({ ...spec, headers: { 'X-A': '1' }, blockAds: false, waitForMs: 500 })).toBe(true);
    expect(leavesTabClean({ ...spec, actions: [] })).toBe(true);
  });

  it('closes tabs that emulated a device or place, or ran actions', () => {
    expect(leavesTabClean({ ...spec, mobile: true })).toBe(false);
    expect(leavesTabClean({ ...spec, location: { country: 'DE' } })).toBe(false);
    expect(leavesTabClean({ ...spec, actions: [{ type: 'wait', milliseconds: 1 }] })).toBe(false);
  });
});

describe('sameDocument', () => {
  it('is true when only the fragment differs, so the tab is blanked first', () => {
    expect(sameDocument('https://a.test/page', 'https://a.test/page#part')).toBe(true);
    expect(sameDocument('https://a.test/page', 'https://a.test/page')).toBe(true);
  });

  it('is false for another page, another query, or a blank tab', () => {
    expect(sameDocument('https://a.test/page', 'https://a.test/other#part')).toBe(false);
    expect(sameDocument('https://a.test/page?x=1', 'https://a.test/page?x=2')).toBe(false);
    expect(sameDocument('about:blank', 'about:blank')).toBe(false);
  });
});
