import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type DeriveOptions, deriveFormats } from '../../shared/formats/derive-formats';

/**
 * Golden pages: each folder of test/fixtures/pages holds a page (`source.html`), the Markdown a
 * reader should get from it (`expected.md`) and optionally `options.json` (onlyMainContent,
 * includeTags, excludeTags, removeBase64Images). Add the page that broke with every extraction fix.
 */
const PAGES_DIR = fileURLToPath(new URL('../fixtures/pages', import.meta.url));

type PageOptions = Partial<Omit<DeriveOptions, 'formats'>>;

const slugs = readdirSync(PAGES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe('golden pages', () => {
  it('has pages to check', () => {
    expect(slugs.length).toBeGreaterThan(0);
  });

  it.each(slugs)('%s', (slug) => {
    const folder = join(PAGES_DIR, slug);
    const html = readFileSync(join(folder, 'source.html'), 'utf8');
    const optionsFile = join(folder, 'options.json');
    const pageOptions = existsSync(optionsFile)
      ? (JSON.parse(readFileSync(optionsFile, 'utf8')) as PageOptions)
      : {};

    const { markdown } = deriveFormats(
      {
        url: `https://example.test/${slug}/`,
        statusCode: 200,
        contentType: 'text/html',
        rawHtml: html,
        renderedHtml: html,
      },
      { formats: new Set(['markdown']), onlyMainContent: true, removeBase64Images: true, ...pageOptions },
    );

    expect(markdown).toBe(readFileSync(join(folder, 'expected.md'), 'utf8').trimEnd());
  });
});
