import { describe, expect, it } from 'vitest';
import { connectionLabel } from '../../../extension/hub/connection-label';
import { downloadName } from '../../../extension/ui/download-name';
import { captureErrorMessage, restrictedPageReason } from '../../../extension/ui/restricted-page';
import { scrapeOutput } from '../../../extension/ui/scrape-output';
import { targetTabId } from '../../../extension/ui/target-tab';

describe('download file names', () => {
  it('come from the title, in characters every file system takes', () => {
    expect(downloadName('Field notes: a spring inspection', 'https://x.test/', 'md')).toBe(
      'field-notes-a-spring-inspection.md',
    );
    expect(downloadName('Ärger/Überstunden? "Café" 2026', 'https://x.test/', 'md')).toBe(
      'ärger-überstunden-café-2026.md',
    );
    expect(downloadName('蜂蜜の話', 'https://x.test/', 'html')).toBe('蜂蜜の話.html');
  });

  it('fall back to the address, and to "page", when the title has no words', () => {
    expect(downloadName('', 'https://www.hive.test/docs/start.html', 'md')).toBe(
      'hive-test-docs-start-html.md',
    );
    expect(downloadName('***', 'not a url', 'png')).toBe('page.png');
  });

  it('stay short', () => {
    const name = downloadName('word '.repeat(100), 'https://x.test/', 'md');
    expect(name.length).toBeLessThanOrEqual(83);
    expect(name).toMatch(/^word(-word)+\.md$/);
  });
});

describe('the popup’s target tab', () => {
  it('is the tab named by ?tab=, or the active tab when none is named', () => {
    expect(targetTabId('?tab=1234')).toBe(1234);
    expect(targetTabId('')).toBeUndefined();
    expect(targetTabId('?tab=')).toBeUndefined();
    expect(targetTabId('?tab=-3')).toBeUndefined();
    expect(targetTabId('?tab=12abc')).toBeUndefined();
  });
});

describe('pages the popup may not read', () => {
  it('are the browser’s own pages and the Web Store', () => {
    expect(restrictedPageReason('chrome://settings/')).toMatch(/browser’s own pages/);
    expect(restrictedPageReason('chrome-extension://abc/popup.html')).toMatch(/browser’s own pages/);
    expect(restrictedPageReason('about:blank')).toMatch(/browser’s own pages/);
    expect(restrictedPageReason('https://chromewebstore.google.com/detail/x')).toMatch(/Web Store/);
    expect(restrictedPageReason('')).toMatch(/no page/);
  });

  it('do not include ordinary pages or local files', () => {
    expect(restrictedPageReason('https://example.test/')).toBeUndefined();
    expect(restrictedPageReason('http://127.0.0.1:8080/a')).toBeUndefined();
    expect(restrictedPageReason('https://chrome.google.com/search')).toBeUndefined();
    expect(restrictedPageReason('file:///home/me/notes.html')).toBeUndefined();
  });

  it('are explained in words a person can act on when Chrome refuses', () => {
    expect(captureErrorMessage(new Error('Cannot access contents of url "file:///x"'), 'file:///x')).toMatch(
      /Allow access to file URLs/,
    );
    expect(captureErrorMessage(new Error('Cannot access contents of the page.'), 'https://a.test/')).toMatch(
      /^Chrome does not let extensions read this page/,
    );
    expect(captureErrorMessage(new Error('Frame was removed'), 'https://a.test/')).toBe(
      'The page could not be read: Frame was removed',
    );
  });
});

describe('what the popup copies and downloads', () => {
  const scrape = {
    url: 'https://a.test/',
    title: 'A',
    description: undefined,
    markdown: '# A',
    html: '<h1>A</h1>',
    links: ['https://a.test/1', 'mailto:x@a.test'],
  };

  it('is the shown format with its media type and file extension', () => {
    expect(scrapeOutput(scrape, 'markdown')).toEqual({
      text: '# A',
      mimeType: 'text/markdown;charset=utf-8',
      extension: 'md',
    });
    expect(scrapeOutput(scrape, 'html').extension).toBe('html');
    expect(scrapeOutput(scrape, 'links')).toEqual({
      text: 'https://a.test/1\nmailto:x@a.test',
      mimeType: 'text/plain;charset=utf-8',
      extension: 'txt',
    });
  });
});

describe('connection labels', () => {
  it('say the state in words', () => {
    expect(connectionLabel({ state: 'unpaired', runningTasks: 0 })).toBe('Not paired');
    expect(connectionLabel({ state: 'idle', runningTasks: 0, origin: 'paired' })).toBe('Connected');
    expect(connectionLabel({ state: 'idle', runningTasks: 0, origin: 'launched' })).toBe(
      'Connected (server pool)',
    );
    expect(connectionLabel({ state: 'working', runningTasks: 1 })).toBe('Connected, running 1 task');
    expect(connectionLabel({ state: 'working', runningTasks: 3 })).toBe('Connected, running 3 tasks');
    expect(connectionLabel({ state: 'disconnected', runningTasks: 0 })).toBe('Disconnected');
  });
});
