import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const script = path.resolve(import.meta.dirname, '../../../scripts/check-node-version.cjs');

/** Runs the check in the Node at `node`, optionally made to report another version. */
function runCheck(node: string, fakeVersion?: string) {
  const fake =
    fakeVersion === undefined
      ? ''
      : `Object.defineProperty(process, 'version', { value: 'v${fakeVersion}' });` +
        `Object.defineProperty(process.versions, 'node', { value: '${fakeVersion}' });`;
  const result = spawnSync(node, ['-e', `${fake} require(${JSON.stringify(script)});`], {
    encoding: 'utf8',
  });
  return { status: result.status, stderr: result.stderr };
}

/** /usr/bin/node when it is an older Node than Tabhive needs (as on the machines this was written on). */
const oldSystemNode = (() => {
  if (!existsSync('/usr/bin/node')) return undefined;
  const version = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' }).stdout.trim();
  return Number(version.replace(/^v/, '').split('.')[0]) < 22 ? version : undefined;
})();

describe('the Node.js version check', () => {
  it('stops an older Node with the version it found and how to get Node 22', () => {
    const { status, stderr } = runCheck(process.execPath, '20.20.2');
    expect(status).toBe(1);
    const lines = stderr.split('\n');
    expect(lines[0]).toBe('Tabhive needs Node.js 22 or newer (this is v20.20.2).');
    expect(stderr).toContain('nvm install 22');
    expect(stderr).toContain('npm install --prefix ~/.local/node22 node@22');
    expect(stderr).toContain('export PATH=~/.local/node22/node_modules/.bin:$PATH');
    // npm 11 runs node@22's installer (which fetches the binary) without a warning only when allowed.
    expect(stderr).toContain(`echo '{"allowScripts":{"node":true}}' > ~/.local/node22/package.json`);
  });

  it('gives the same commands as the README, in the same folder', () => {
    const { stderr } = runCheck(process.execPath, '20.20.2');
    const commands = stderr
      .split('\n')
      .filter((line) => line.startsWith('  '))
      .map((line) => line.trim());
    expect(commands).toHaveLength(4);
    const readme = readFileSync(path.resolve(script, '../../README.md'), 'utf8');
    for (const command of commands) expect(readme).toContain(`  ${command}`);
    expect(readme).not.toMatch(/~\/\.cache\/node22/);
  });

  it('lets Node 22 and newer through without a word', () => {
    for (const version of [process.versions.node, '22.0.0', '24.1.0']) {
      expect(runCheck(process.execPath, version)).toEqual({ status: 0, stderr: '' });
    }
  });

  it.skipIf(oldSystemNode === undefined)('stops the real older Node at /usr/bin/node', () => {
    const { status, stderr } = runCheck('/usr/bin/node');
    expect(status).toBe(1);
    expect(stderr.split('\n')[0]).toBe(`Tabhive needs Node.js 22 or newer (this is ${oldSystemNode}).`);
  });

  it.skipIf(oldSystemNode === undefined)('stops server/main.ts run directly on the older Node', () => {
    const root = path.resolve(script, '../..');
    const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');
    const result = spawnSync('/usr/bin/node', [tsx, 'server/main.ts'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(
      `Tabhive needs Node.js 22 or newer (this is ${oldSystemNode}).`,
    );
  });

  it('runs first in npm start and npm test, and is the first import of server/main.ts', () => {
    const { scripts } = JSON.parse(readFileSync(path.resolve(script, '../../package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.start).toMatch(/^node scripts\/check-node-version\.cjs && /);
    expect(scripts.test).toMatch(/^node scripts\/check-node-version\.cjs && /);
    const main = readFileSync(path.resolve(script, '../../server/main.ts'), 'utf8');
    expect(main.match(/^import .*$/m)?.[0]).toBe("import '../scripts/check-node-version.cjs';");
  });
});
