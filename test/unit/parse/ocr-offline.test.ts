import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PROBE = fileURLToPath(new URL('../../helpers/ocr-offline-probe.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url));

/**
 * OCR needs nothing from the network: the engine and the English model are read from
 * node_modules. The probe runs in a new network namespace (`unshare --net`, as an unprivileged
 * user namespace), where no address outside the process can be reached and no name resolves, so a
 * download at run time (tesseract.js's default CDN for the model) would fail it.
 */
describe('OCR without a network', () => {
  it('reads an image with the network unreachable', { timeout: 120_000 }, () => {
    const unreachable = spawnSync(
      'unshare',
      [
        '--user',
        '--map-root-user',
        '--net',
        'node',
        '-e',
        `require('dns').lookup('cdn.jsdelivr.net', (e) => process.exit(e ? 0 : 1))`,
      ],
      { encoding: 'utf8' },
    );
    // The namespace is what the proof stands on: it must itself have no network.
    expect(unreachable.status).toBe(0);
    const probe = spawnSync('unshare', ['--user', '--map-root-user', '--net', process.execPath, TSX, PROBE], {
      encoding: 'utf8',
      timeout: 110_000,
    });
    expect(probe.stderr).not.toMatch(/Network error|ENOTFOUND|EAI_AGAIN/);
    expect(probe.status).toBe(0);
    expect(probe.stdout).toContain('OCR-TEXT:Field Notes from the River Survey');
    expect(probe.stdout).toContain('Water samples were taken at seven stations');
  });
});
