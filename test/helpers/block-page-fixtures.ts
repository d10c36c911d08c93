import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BlockKind } from '../../shared/block-pages/recognize-block-page';

const DIR = fileURLToPath(new URL('../fixtures/block-pages/', import.meta.url));

export interface BlockPageFixture {
  file: string;
  status: number;
  headers: Record<string, string>;
  /** What the recognizer must say; null for a page that is not blocked. */
  expect: { vendor: string; kind: BlockKind } | null;
  html: string;
}

/** The fixtures of test/fixtures/block-pages/ as block-pages.json serves them. */
export function blockPageFixtures(): BlockPageFixture[] {
  const manifest = JSON.parse(readFileSync(`${DIR}block-pages.json`, 'utf8')) as {
    pages: Record<string, Omit<BlockPageFixture, 'file' | 'html'>>;
  };
  return Object.entries(manifest.pages).map(([file, page]) => ({
    file,
    ...page,
    html: readFileSync(`${DIR}${file}`, 'utf8'),
  }));
}
