import { h } from 'preact';
import type { ConsoleBrowser } from './console-types';
import { timeOf } from './format';

/**
 * One browser's disclosure: its extension and user agent, the tasks it runs now and its last
 * failures. A team key gets counts only for the shared pool's browsers (null lists): they run
 * every team's tasks.
 */
export function browserDetails(browser: ConsoleBrowser) {
  const shortId = browser.id.slice(0, 12);
  return h(
    'details',
    { class: 'browser-details', 'data-browser-id': browser.id },
    h('summary', { 'aria-label': `Details of browser ${shortId}` }, 'Details'),
    h(
      'dl',
      { class: 'facts' },
      h('dt', null, 'Extension'),
      h('dd', { 'data-testid': 'browser-version' }, browser.extensionVersion ?? '–'),
      h('dt', null, 'User agent'),
      h('dd', { class: 'url' }, browser.userAgent ?? '–'),
    ),
    h('h3', null, `Running tasks (${browser.tabsInUse})`),
    browser.runningTasks === null
      ? h('p', { class: 'hint' }, "The shared pool's tasks are shown to the admin only.")
      : browser.runningTasks.length === 0
        ? h('p', null, 'None.')
        : h(
            'ul',
            { 'aria-label': `Tasks browser ${shortId} runs` },
            browser.runningTasks.map((task) =>
              h(
                'li',
                { key: task.taskId, 'data-task-url': task.url },
                h('span', { class: 'url' }, task.url),
                ' since ',
                timeOf(task.startedAt),
              ),
            ),
          ),
    h('h3', null, `Recent failures (${browser.recentFailureCount})`),
    browser.recentFailures === null
      ? h('p', { class: 'hint' }, "The shared pool's failures are shown to the admin only.")
      : browser.recentFailures.length === 0
        ? h('p', null, 'None.')
        : h(
            'ul',
            { class: 'errors', 'aria-label': `Recent failures of browser ${shortId}` },
            browser.recentFailures.map((failure) =>
              h(
                'li',
                { key: `${failure.at}-${failure.url}`, 'data-failure-url': failure.url },
                timeOf(failure.at),
                ' ',
                h('span', { class: 'url' }, failure.url),
                ' ',
                h('code', null, failure.code),
                h('span', { class: 'failed' }, `: ${failure.message}`),
              ),
            ),
          ),
  );
}
