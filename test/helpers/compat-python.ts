import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The Python of the virtual environment that holds firecrawl-py, schemathesis and pytest
 * (test/compat/python/requirements.txt): TABHIVE_PYTHON, or the one .ci/run caches. Undefined when
 * there is none; with REQUIRE_PYTHON_SDK=1 (as in CI) the suites then fail instead of skipping.
 */
export function compatPython(): string | undefined {
  const fromEnv = process.env.TABHIVE_PYTHON;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  const cache = process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache');
  const cached = path.join(cache, 'tabhive', 'venv', 'bin', 'python');
  return existsSync(cached) ? cached : undefined;
}

/** Whether the Python suites must run here (CI) rather than be skipped for want of the venv. */
export const pythonRequired = process.env.REQUIRE_PYTHON_SDK === '1';

/** The venv's Python, or an error that says how to make one. */
export function requirePython(): string {
  const python = compatPython();
  if (python === undefined || !existsSync(python)) {
    throw new Error(
      'No Python with firecrawl-py: create a venv from test/compat/python/requirements.txt and set TABHIVE_PYTHON ' +
        '(.ci/run does this under ~/.cache/tabhive/venv)',
    );
  }
  return python;
}

/** Runs `python args…` and answers its exit code and interleaved output, for the test's report. */
export function runPython(
  python: string,
  args: string[],
  env: Record<string, string>,
  cwd?: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, args, {
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(cwd === undefined ? {} : { cwd }),
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}
