import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { requirePython, runPython } from '../../helpers/compat-python';
import { startCrawlSite } from '../../helpers/crawl-site';
import { startTestTabhive } from '../../helpers/start-test-tabhive';

const HOOKS_DIR = fileURLToPath(new URL('.', import.meta.url));

/** How long and how hard to fuzz. */
export interface FuzzBounds {
  /** The whole run's time budget, in seconds. */
  maxTimeSeconds: number;
  /** Test cases per operation and phase. */
  maxExamples: number;
  /** For a reproducible run. */
  seed?: number;
}

/**
 * Schemathesis against a whole Tabhive (two browsers, the loopback crawl site as the only target)
 * using the OpenAPI document the server serves: no 5xx except declared scrape failures
 * (tabhive_fuzz_hooks.py), responses that match the document, 4xx for what it refuses.
 * Answers schemathesis's exit code and report.
 */
export async function runApiFuzz({ maxTimeSeconds, maxExamples, seed }: FuzzBounds) {
  const python = requirePython();
  const site = await startCrawlSite();
  const tabhive = await startTestTabhive({ browsers: 2 });
  // Schemathesis and Hypothesis leave their files in the working directory.
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-fuzz-'));
  try {
    return await runPython(
      python,
      [
        '-c',
        // `st` is this module's entry point; running it from the venv's Python needs no PATH.
        'import sys; from schemathesis.cli import schemathesis; sys.exit(schemathesis())',
        'run',
        `${tabhive.url}/openapi.json`,
        '--header',
        `Authorization: Bearer ${tabhive.apiKey}`,
        '--checks',
        'status_code_conformance,content_type_conformance,response_schema_conformance,negative_data_rejection,no_unexpected_server_error',
        // The coverage phase trips over itself on the recursive JSON value (schemathesis 4.32.5,
        // "AST constructor recursion depth mismatch"): examples and fuzzing only.
        '--phases',
        'examples,fuzzing',
        '--max-examples',
        String(maxExamples),
        '--max-time',
        String(maxTimeSeconds),
        // A scrape waits for a free tab behind the crawls and batches the fuzzer starts.
        '--request-timeout',
        '120',
        '--workers',
        '2',
        '--generation-database',
        'none',
        '--suppress-health-check',
        'all',
        '--no-color',
        ...(seed === undefined ? [] : ['--seed', String(seed)]),
      ],
      {
        SCHEMATHESIS_HOOKS: 'tabhive_fuzz_hooks',
        PYTHONPATH: HOOKS_DIR,
        FUZZ_SITE_URL: site.url(''),
      },
      workDir,
    );
  } finally {
    await rm(workDir, { recursive: true, force: true });
    await tabhive.stop();
    await site.close();
  }
}
