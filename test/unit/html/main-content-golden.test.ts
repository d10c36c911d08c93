import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deriveFormats } from '../../../shared/formats/derive-formats';

/**
 * Golden pages by page type (issue 35), written for these tests (no benchmark page): each folder
 * of test/fixtures/main-content holds a page (`source.html`), its URL and the type the classifier
 * must give it (`page.json`), and the Markdown onlyMainContent must make of it (`expected.md`):
 * the content a reader of that type of page wants, without the chrome around it.
 */
const PAGES_DIR = fileURLToPath(new URL('../../fixtures/main-content', import.meta.url));
const PageFacts = z.object({ url: z.string().url(), pageType: z.string() });

const slugs = readdirSync(PAGES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(PAGES_DIR, entry.name, 'page.json')))
  .map((entry) => entry.name)
  .sort();

describe('main content by page type', () => {
  it('has a golden page of every type', () => {
    // One folder named by each type; further folders hold pages for single classifier rules.
    expect(slugs).toEqual(
      expect.arrayContaining([
        'article',
        'collection',
        'documentation',
        'forum',
        'listing',
        'product',
        'service',
      ]),
    );
  });

  it.each(slugs)('%s', (slug) => {
    const folder = join(PAGES_DIR, slug);
    const html = readFileSync(join(folder, 'source.html'), 'utf8');
    const facts = PageFacts.parse(JSON.parse(readFileSync(join(folder, 'page.json'), 'utf8')));
    const { markdown, metadata } = deriveFormats(
      { url: facts.url, statusCode: 200, contentType: 'text/html', rawHtml: html, renderedHtml: html },
      { formats: new Set(['markdown']), onlyMainContent: true, removeBase64Images: true },
    );
    expect(metadata.pageType).toBe(facts.pageType);
    expect(markdown).toBe(readFileSync(join(folder, 'expected.md'), 'utf8').trimEnd());
  });
});
