import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChrome } from '../../../server/browsers/launcher/find-chrome';

let dir: string;
let executable: string;
let plainFile: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tabhive-chrome-'));
  executable = path.join(dir, 'chromium');
  plainFile = path.join(dir, 'not-executable');
  await writeFile(executable, '#!/bin/sh\n');
  await chmod(executable, 0o755);
  await writeFile(plainFile, '');
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('finding Chromium', () => {
  it('uses CHROME_PATH when it is executable', () => {
    expect(findChrome(executable, [])).toBe(executable);
  });

  it('refuses a CHROME_PATH that is not executable', () => {
    expect(() => findChrome(plainFile, [executable])).toThrow(/not an executable/);
  });

  it('takes the first usual path that exists', () => {
    expect(findChrome(undefined, [path.join(dir, 'missing'), plainFile, executable])).toBe(executable);
  });

  it('explains what to do when there is none', () => {
    expect(() => findChrome(undefined, [path.join(dir, 'missing')])).toThrow(/CHROME_PATH|BROWSERS=0/);
  });
});
