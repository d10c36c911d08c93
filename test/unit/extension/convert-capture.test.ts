import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { convertCapture } from '../../../extension/ui/convert-capture';
import type { InPageCapture } from '../../../extension/page/capture-page';

const URL_OF_PAGE = 'https://hive.test/notes/field-notes.html';

async function fieldNotes(): Promise<InPageCapture> {
  const html = await readFile(new URL('../../fixtures/site/field-notes.html', import.meta.url), 'utf8');
  return { url: URL_OF_PAGE, rawHtml: html, renderedHtml: html, documentContentType: 'text/html' };
}

describe('converting a tab’s capture in the popup', () => {
  it('keeps the main content and leaves out navigation and footer', async () => {
    const scrape = convertCapture(await fieldNotes(), { onlyMainContent: true });
    expect(scrape.title).toBe('Field notes: a spring inspection');
    expect(scrape.description).toBe('What a beekeeper looks for when opening a hive in spring.');
    expect(scrape.markdown).toMatch(/^# A spring inspection\n/);
    expect(scrape.markdown).toContain('## What to write down');
    expect(scrape.markdown).toContain('[getting started guide](https://hive.test/docs/getting-started.html)');
    expect(scrape.markdown).not.toContain('Hive Keepers Guild');
    expect(scrape.markdown).not.toContain('Shop');
    expect(scrape.links).toEqual(['https://hive.test/docs/getting-started.html']);
  });

  it('keeps everything readable for the whole page', async () => {
    const scrape = convertCapture(await fieldNotes(), { onlyMainContent: false });
    expect(scrape.markdown).toContain('Hive Keepers Guild');
    expect(scrape.markdown).toContain('[Shop](https://hive.test/shop.html)');
    expect(scrape.html).toContain('<footer>');
    expect(scrape.html).not.toContain('<style');
    expect(scrape.links).toContain('https://hive.test/imprint.html');
  });

  it('makes Markdown of what a reader sees: hidden elements stay out', () => {
    const rawHtml =
      '<!doctype html><html><head><title>Shown</title></head><body><p>Seen</p><p hidden>Unseen</p></body></html>';
    const renderedHtml =
      '<!doctype html><html><head><title>Shown</title></head><body><p>Seen</p></body></html>';
    const scrape = convertCapture(
      { url: URL_OF_PAGE, rawHtml, renderedHtml, documentContentType: 'text/html' },
      { onlyMainContent: false },
    );
    expect(scrape.markdown).toBe('Seen');
  });

  it('falls back to the whole page when no main content is found, and to the URL for a title', () => {
    const html = '<html><body><footer><p>Only a footer here</p></footer></body></html>';
    const scrape = convertCapture(
      { url: URL_OF_PAGE, rawHtml: html, renderedHtml: html, documentContentType: 'text/html' },
      { onlyMainContent: true },
    );
    expect(scrape.markdown).toBe('Only a footer here');
    expect(scrape.title).toBe(URL_OF_PAGE);
    expect(scrape.description).toBeUndefined();
  });

  it('fences a JSON document the browser shows as a page', () => {
    const body = '{"hive":"honey"}';
    const scrape = convertCapture(
      { url: URL_OF_PAGE, rawHtml: body, renderedHtml: body, documentContentType: 'application/json' },
      { onlyMainContent: true },
    );
    expect(scrape.markdown).toBe('```json\n{"hive":"honey"}\n```');
  });
});
