import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrawlSite } from '../helpers/crawl-site';
import { freePort } from '../helpers/free-port';
import { startTestTabhive } from '../helpers/start-test-tabhive';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// eslint-disable-next-line no-control-regex -- the escape character is what is looked for
const ANSI = /\u001b\[/;
/** The plain progress line of crawl and batch: pages done/total, pages/s and an ETA. */
const PROGRESS_LINE =
  /^(crawl|batch) \w{8} \d+\/\d+ pages(, \d+ failed)? \| [\d.-]+ pages\/s \| ETA \S+( \S+)? \| \w+$/m;

let site: Awaited<ReturnType<typeof startCrawlSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
let dir: string;

beforeAll(async () => {
  site = await startCrawlSite({ slowMs: 3_000, slowPages: 10 });
  tabhive = await startTestTabhive({ browsers: 1 });
  dir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-cli-e2e-'));
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

/** Runs `tabhive …` as a child process (stdout and stderr are pipes, so not a TTY). */
function cli(
  args: string[],
  {
    env = {},
    stdin,
    onStderr,
  }: {
    env?: Record<string, string>;
    stdin?: string;
    /** Called with stderr so far, and the child, as it grows. */
    onStderr?: (stderr: string, child: ReturnType<typeof spawn>) => void;
  } = {},
) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/api/cli/tabhive/main.ts', ...args], {
      cwd: ROOT,
      // Not run by npm, whatever runs the tests: the command line says plain `tabhive`.
      env: {
        ...process.env,
        npm_command: '',
        npm_lifecycle_event: '',
        TABHIVE_API_URL: tabhive.url,
        TABHIVE_API_KEY: tabhive.apiKey,
        ...env,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      onStderr?.(stderr, child);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- pages are what the API sent; tests assert on their shape
const jsonLines = (text: string): any[] =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);

describe('tabhive scrape', () => {
  it('prints the Markdown to stdout', async () => {
    const result = await cli(['scrape', site.url('/docs/page-3.html')]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('# Doc 3');
    expect(result.stdout).toContain('Content of Doc 3.');
    expect(result.stdout).not.toMatch(ANSI);
  });

  it('writes the format asked for to a file', async () => {
    const file = path.join(dir, 'links.txt');
    const result = await cli([
      'scrape',
      site.url('/'),
      '--formats',
      'links',
      '--no-only-main-content',
      '-o',
      file,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    const text = await readFile(file, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(text.split('\n')).toEqual(expect.arrayContaining([site.url('/docs/'), site.url('/about.html')]));
  });

  it('writes Markdown to a file with a final newline', async () => {
    const file = path.join(dir, 'about.md');
    const result = await cli(['scrape', site.url('/about.html'), '-o', file]);
    expect(result.code, result.stderr).toBe(0);
    const markdown = await readFile(file, 'utf8');
    expect(markdown).toContain('Content of /about.html.');
    expect(markdown.endsWith('\n')).toBe(true);
    expect(markdown.endsWith('\n\n')).toBe(false);
  });

  it('prints the document as JSON with --json', async () => {
    const result = await cli(['scrape', site.url('/about.html'), '--json']);
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout);
    expect(document.markdown).toContain('Content of /about.html.');
    expect(document.metadata).toMatchObject({ sourceURL: site.url('/about.html'), statusCode: 200 });
  });

  it("says the API's error on stderr and exits 1", async () => {
    const result = await cli(['scrape', 'ftp://example.com/file']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^tabhive: Bad Request: url: .* \(HTTP 400, BAD_REQUEST\)/);
    expect(result.stderr).toMatch(/url: /);
  });
});

describe('tabhive crawl', () => {
  let jobId: string;
  let completed: number;
  const jsonl = () => path.join(dir, 'crawl.jsonl');

  it('streams every page once to a JSON Lines file, with plain progress lines off a terminal', async () => {
    const result = await cli(['crawl', site.url('/docs/'), '--limit', '12', '-o', jsonl(), '--json']);
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ status: 'completed', completed: 12, total: 12, written: 12, skipped: 0 });
    jobId = summary.id;
    completed = summary.completed;

    const pages = jsonLines(await readFile(jsonl(), 'utf8'));
    expect(pages).toHaveLength(completed);
    const urls = pages.map((page) => page.metadata.sourceURL as string);
    expect(new Set(urls).size).toBe(urls.length);
    expect(new Set(pages.map((page) => page.metadata.scrapeId)).size).toBe(pages.length);
    for (const url of urls) expect(url.startsWith(site.url('/docs/'))).toBe(true);
    expect(
      pages.every((page) => typeof page.markdown === 'string' && page.markdown.includes('Content of')),
    ).toBe(true);
    // The server agrees on the page count.
    expect((await tabhive.get(`/v2/crawl/${jobId}`)).json).toMatchObject({
      status: 'completed',
      completed: 12,
    });

    expect(result.stderr).not.toMatch(ANSI);
    expect(result.stderr).toContain(`Crawl ${jobId} started.`);
    expect(result.stderr).toMatch(PROGRESS_LINE);
    expect(result.stderr).toMatch(/^crawl \w{8} 12\/12 pages .* \| completed$/m);
  });

  it('writes nothing twice when resuming a finished job', async () => {
    const before = await readFile(jsonl(), 'utf8');
    const result = await cli(['crawl', '--resume', jobId, '-o', jsonl(), '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: jobId, written: 0, skipped: completed });
    expect(await readFile(jsonl(), 'utf8')).toBe(before);
  });

  it('writes only the missing pages when resuming an output cut short', async () => {
    const lines = (await readFile(jsonl(), 'utf8')).split('\n').filter((line) => line !== '');
    // Three pages lost and the last line cut in the middle, as when a run is killed.
    await writeFile(jsonl(), `${lines.slice(0, -4).join('\n')}\n${lines.at(-4)?.slice(0, 40)}`);
    const result = await cli(['crawl', '--resume', jobId, '-o', jsonl()]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`^Crawl ${jobId} completed: 12 pages, 4 written to .*, 8 already there`),
    );
    const pages = jsonLines(await readFile(jsonl(), 'utf8'));
    expect(pages).toHaveLength(completed);
    expect(new Set(pages.map((page) => page.metadata.scrapeId)).size).toBe(completed);
  });

  it('writes one Markdown file a page into --out-dir', async () => {
    const out = path.join(dir, 'pages');
    const result = await cli(['crawl', site.url('/docs/'), '--limit', '5', '--out-dir', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Crawl \S+ completed: 5 pages, 5 written to /);
    const files = (await readdir(out)).sort();
    expect(files.filter((file) => file.endsWith('.md'))).toHaveLength(5);
    expect(files).toContain('index.jsonl');
    const index = jsonLines(await readFile(path.join(out, 'index.jsonl'), 'utf8'));
    expect(index.map((entry) => entry.file).sort()).toEqual(files.filter((file) => file.endsWith('.md')));
    for (const entry of index) {
      const markdown = await readFile(path.join(out, entry.file), 'utf8');
      expect(markdown).toContain(`Content of ${entry.title}.`);
      expect(markdown.endsWith('\n'), entry.file).toBe(true);
    }
    expect(index.map((entry) => entry.file)).toContain('docs_index.md');
  });

  it('prints the resume command as the user typed the program when interrupted', async () => {
    let interrupted = false;
    const result = await cli(
      ['crawl', site.url('/slow/'), '--limit', '5', '-o', path.join(dir, 'slow.jsonl')],
      {
        env: { npm_command: 'exec', npm_lifecycle_event: 'npx' },
        onStderr: (stderr, child) => {
          if (interrupted || !/Crawl \S+ started\./.test(stderr)) return;
          interrupted = true;
          // A moment for the command line to take up following the job (its Ctrl-C handler).
          setTimeout(() => child.kill('SIGINT'), 1_000);
        },
      },
    );
    expect(result.code).toBe(130);
    const id = /Crawl (\S+) started\./.exec(result.stderr)?.[1];
    expect(result.stderr).toContain(`npx tabhive crawl --resume ${id} -o ${path.join(dir, 'slow.jsonl')}`);
    await fetch(`${tabhive.url}/v2/crawl/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${tabhive.apiKey}` },
    });
  });

  it('exits 1 when the job was cancelled', async () => {
    const started = await tabhive.post('/v2/crawl', { url: site.url('/slow/'), limit: 10 });
    expect(started.status).toBe(200);
    await fetch(`${tabhive.url}/v2/crawl/${started.json.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${tabhive.apiKey}` },
    });
    const result = await cli(['crawl', '--resume', started.json.id, '-o', path.join(dir, 'cancelled.jsonl')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`tabhive: crawl ${started.json.id} ended cancelled`);
  });
});

describe('tabhive map, search and batch', () => {
  it('maps a site, one URL a line or JSON', async () => {
    const text = await cli(['map', site.url('/')]);
    expect(text.code, text.stderr).toBe(0);
    const urls = text.stdout.trim().split('\n');
    expect(urls).toEqual(expect.arrayContaining([site.url('/from-sitemap.html'), site.url('/about.html')]));

    const json = await cli(['map', site.url('/'), '--search', 'about', '--limit', '2', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const links = JSON.parse(json.stdout);
    expect(links).toHaveLength(2);
    expect(links[0].url).toBe(site.url('/about.html'));
  });

  it("searches the server's index", async () => {
    // The pages scraped and crawled above are in the team's local index.
    const text = await cli(['search', 'Doc 3', '--limit', '3']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(site.url('/docs/page-3.html'));
    expect(text.stdout).toMatch(/^1\. /);

    const json = await cli(['search', 'Doc 3', '--limit', '3', '--scrape', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const data = JSON.parse(json.stdout);
    const hit = data.web.find((result: { url: string }) => result.url === site.url('/docs/page-3.html'));
    expect(hit.markdown).toContain('Content of Doc 3.');
  });

  it('batch-scrapes a file of URLs to JSON Lines on stdout, with progress on stderr', async () => {
    const file = path.join(dir, 'urls.txt');
    const urls = [site.url('/docs/page-20.html'), site.url('/docs/page-21.html'), site.url('/about.html')];
    await writeFile(file, `# three pages\n${urls.join('\n')}\n`);
    const result = await cli(['batch', file]);
    expect(result.code, result.stderr).toBe(0);
    const pages = jsonLines(result.stdout);
    expect(pages.map((page) => page.metadata.sourceURL).sort()).toEqual([...urls].sort());
    expect(result.stderr).toMatch(PROGRESS_LINE);
    expect(result.stderr).toMatch(/^Batch \S+ completed: 3 pages, 3 written to stdout/m);
    expect(result.stderr).not.toMatch(ANSI);
  });

  it('counts, lists and exits non-zero for the pages of a batch that failed', async () => {
    const file = path.join(dir, 'some-fail.txt');
    const refused = ['http://127.0.0.1:9/one.html', 'http://127.0.0.1:9/two.html'];
    await writeFile(file, [site.url('/docs/page-22.html'), ...refused].join('\n'));
    const result = await cli(['batch', file, '-o', path.join(dir, 'some-fail.jsonl')]);
    expect(result.code, result.stderr).toBe(4);
    expect(result.stdout).toMatch(/^Batch \S+ completed: 1 of 3 pages, 2 failed, 1 written to /);
    expect(result.stderr).toMatch(/^2 pages failed:$/m);
    for (const url of refused) expect(result.stderr).toMatch(new RegExp(`^  ${url}: \\S`, 'm'));
    expect(result.stderr).toMatch(/^tabhive: 2 of 3 pages of batch \S+ failed/m);

    const id = /^Batch (\S+) completed/.exec(result.stdout)?.[1] ?? '';
    const json = await cli([
      'batch',
      '--resume',
      id,
      '--quiet',
      '-o',
      path.join(dir, 'some-fail-2.jsonl'),
      '--json',
    ]);
    expect(json.code).toBe(4);
    const summary = JSON.parse(json.stdout);
    expect(summary).toMatchObject({ status: 'completed', completed: 1, total: 3, written: 1 });
    expect(summary.failed.map((failure: { url: string }) => failure.url).sort()).toEqual(refused);
  });

  it('reads the URLs from stdin with -', async () => {
    const result = await cli(['batch', '-', '--quiet', '-o', path.join(dir, 'batch.jsonl'), '--json'], {
      stdin: `${site.url('/docs/page-30.html')}\n`,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'completed', completed: 1, written: 1 });
    expect(result.stderr).not.toMatch(PROGRESS_LINE);
  });
});

describe('tabhive keys', () => {
  it('runs the keys commands on a store, as npm run keys does', async () => {
    const env = { DATA_DIR: path.join(dir, 'keys-store'), MONGODB_URL: '' };
    const created = await cli(['keys', 'create', '--team', 'acme', '--label', 'cli', '--json'], { env });
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(key).toMatchObject({ teamId: 'acme', label: 'cli' });
    const listed = await cli(['--json', 'keys', 'list'], { env });
    expect(JSON.parse(listed.stdout).map((entry: { keyId: string }) => entry.keyId)).toEqual([key.keyId]);
    const twice = await cli(['keys', 'team', 'create', 'acme'], { env });
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('tabhive: team "acme" exists already');
  });
});

describe('tabhive exit codes', () => {
  it("exits 3 with the API's message when the key is refused, naming the key and how to give another", async () => {
    const result = await cli(['scrape', site.url('/about.html')], {
      env: { TABHIVE_API_KEY: 'fc-not-a-key-0000000000000000abcd' },
    });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('tabhive: Unauthorized: Invalid token (HTTP 401)');
    expect(result.stderr).toContain('refused the key fc-n…abcd, from TABHIVE_API_KEY');
    expect(result.stderr).not.toContain('fc-not-a-key-0000000000000000abcd');
    expect(result.stderr).toContain('tabhive --api-key <key>');
    expect(result.stderr).toContain('$DATA_DIR/api-key');
  });

  it('exits 3 with a hint when there is no key at all', async () => {
    const result = await cli(['map', site.url('/')], {
      env: { TABHIVE_API_KEY: '', DATA_DIR: path.join(dir, 'no-data') },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('(HTTP 401)');
    expect(result.stderr).toContain('TABHIVE_API_KEY');
  });

  it("uses the local server's key file when no key is given", async () => {
    await writeFile(path.join(tabhive.dataDir, 'api-key'), `${tabhive.apiKey}\n`);
    const result = await cli(['scrape', site.url('/about.html'), '--api-url', tabhive.url], {
      env: { TABHIVE_API_KEY: '', TABHIVE_API_URL: '', DATA_DIR: tabhive.dataDir },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Content of /about.html.');
  });

  it('exits 3 when the server cannot be reached', async () => {
    const port = await freePort();
    const result = await cli(['crawl', site.url('/docs/'), '-o', path.join(dir, 'never.jsonl')], {
      env: { TABHIVE_API_URL: `http://127.0.0.1:${port}` },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      `tabhive: cannot reach Tabhive at http://127.0.0.1:${port} (ECONNREFUSED)`,
    );
  });

  it('exits 2 on a usage error', async () => {
    const result = await cli(['crawl', site.url('/'), '--limit', 'many']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--limit <n>' argument 'many' is invalid/);
    expect((await cli(['frobnicate'])).code).toBe(2);
  });
});
