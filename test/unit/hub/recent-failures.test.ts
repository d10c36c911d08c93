import { describe, expect, it } from 'vitest';
import { displayUrl } from '../../../server/browsers/hub/display-url';
import { createRecentFailures, RECENT_FAILURES } from '../../../server/browsers/hub/recent-failures';

const failure = (n: number) => ({
  at: `2026-01-01T00:00:0${n}.000Z`,
  taskId: `task-${n}`,
  url: `https://site.test/${n}`,
  code: 'BROWSER_ERROR',
  message: `failure ${n}`,
});

describe('recent failures of a browser', () => {
  it('keeps the last five, newest first', () => {
    const failures = createRecentFailures();
    expect(failures.list()).toEqual([]);
    for (let n = 1; n <= 7; n++) failures.record(failure(n));
    expect(RECENT_FAILURES).toBe(5);
    expect(failures.list().map((kept) => kept.taskId)).toEqual([
      'task-7',
      'task-6',
      'task-5',
      'task-4',
      'task-3',
    ]);
  });

  it('cuts long messages and hands out copies', () => {
    const failures = createRecentFailures(2);
    failures.record({ ...failure(1), message: 'x'.repeat(10_000) });
    const [kept] = failures.list();
    expect(kept?.message).toHaveLength(300);
    if (kept !== undefined) kept.url = 'changed';
    expect(failures.list()[0]?.url).toBe('https://site.test/1');
  });
});

describe('a task URL as the console shows it', () => {
  it('leaves out the query, the fragment and credentials', () => {
    expect(displayUrl('https://user:secret@site.test:8443/a/b.html?token=abc#part')).toBe(
      'https://site.test:8443/a/b.html',
    );
    expect(displayUrl('http://127.0.0.1:9/refused.html')).toBe('http://127.0.0.1:9/refused.html');
  });

  it('shows no data URL content and survives what is not a URL', () => {
    expect(displayUrl('data:text/html,<p>secret</p>')).toBe('data:…');
    expect(displayUrl('not a url')).toBe('(not a URL)');
  });
});
