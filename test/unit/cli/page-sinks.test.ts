import { appendFile, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  OUT_DIR_INDEX,
  openJsonlSink,
  openMarkdownDirSink,
} from '../../../server/api/cli/tabhive/page-sinks';

const page = (n: number) => ({
  markdown: `# Page ${n}`,
  metadata: { scrapeId: `id-${n}`, sourceURL: `http://site.test/docs/page-${n}.html`, title: `Page ${n}` },
});

describe('page sinks', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-cli-sink-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('JSON Lines: a resumed file knows its pages and loses a last line cut short', async () => {
    const file = path.join(dir, 'out.jsonl');
    const first = await openJsonlSink(file, { resume: false });
    await first.write(page(1));
    await first.write(page(2));
    await first.close();
    await appendFile(file, '{"markdown":"# Page 3","metad'); // killed mid-line

    const resumed = await openJsonlSink(file, { resume: true });
    expect([...resumed.known].sort()).toEqual(['id-1', 'id-2']);
    await resumed.write(page(3));
    await resumed.close();
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).metadata.scrapeId)).toEqual(['id-1', 'id-2', 'id-3']);
  });

  it('JSON Lines: a new run starts the file empty', async () => {
    const file = path.join(dir, 'out.jsonl');
    const first = await openJsonlSink(file, { resume: false });
    await first.write(page(1));
    await first.close();
    const again = await openJsonlSink(file, { resume: false });
    expect(again.known.size).toBe(0);
    await again.write(page(2));
    await again.close();
    expect((await readFile(file, 'utf8')).trimEnd().split('\n')).toHaveLength(1);
  });

  it('Markdown folder: one file a page, an index, and a resume that knows both', async () => {
    const out = path.join(dir, 'pages');
    const first = await openMarkdownDirSink(out, { resume: false, startHost: 'site.test' });
    await first.write(page(1));
    await first.write({ ...page(9), metadata: { ...page(9).metadata, scrapeId: 'id-9' } });
    await first.close();
    // A text file ends with a newline.
    expect(await readFile(path.join(out, 'docs_page-1.md'), 'utf8')).toBe('# Page 1\n');

    const resumed = await openMarkdownDirSink(out, { resume: true });
    expect([...resumed.known].sort()).toEqual(['id-1', 'id-9']);
    // Same path, another page (a retried URL in a batch): a new name, not an overwrite.
    await resumed.write({
      ...page(1),
      markdown: 'again',
      metadata: { ...page(1).metadata, scrapeId: 'id-1b' },
    });
    await resumed.close();
    expect((await readdir(out)).sort()).toEqual([
      'docs_page-1-2.md',
      'docs_page-1.md',
      'docs_page-9.md',
      OUT_DIR_INDEX,
    ]);
    const index = (await readFile(path.join(out, OUT_DIR_INDEX), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(index).toEqual([
      { file: 'docs_page-1.md', url: 'http://site.test/docs/page-1.html', title: 'Page 1', key: 'id-1' },
      { file: 'docs_page-9.md', url: 'http://site.test/docs/page-9.html', title: 'Page 9', key: 'id-9' },
      { file: 'docs_page-1-2.md', url: 'http://site.test/docs/page-1.html', title: 'Page 1', key: 'id-1b' },
    ]);
  });
});
