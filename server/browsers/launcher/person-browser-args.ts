import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { BROWSER_WINDOW } from './virtual-display';

/**
 * How a launched browser shows its windows:
 * - `virtual`: headful Chromium on a virtual display of the launcher's own (Xvfb). Nothing about it
 *   says headless (user agent, client hints in pages, workers and headers alike, window geometry),
 *   and no switch or script pretends anything (docs/browser-control.md#bot-detection).
 * - `headless`: new headless, where Xvfb is not installed. Its user agent is given with
 *   `--user-agent` (headless says "HeadlessChrome"); Chromium then leaves the high-entropy client
 *   hints empty, a tell this mode keeps.
 */
export type LaunchDisplay = { kind: 'virtual' } | { kind: 'headless'; userAgent?: string | undefined };

/**
 * WebGL on the host's software GL (Mesa llvmpipe through ANGLE), as on a Linux desktop without a
 * GPU driver, while pages are still composited in software. SwiftShader, Chromium's own fallback,
 * is a renderer no person's Chrome reports; llvmpipe composition would cost about half again the
 * CPU per page (BENCHMARKS.md#looking-like-a-persons-browser).
 */
const SOFTWARE_GL_ARGS = ['--disable-gpu-compositing', '--ignore-gpu-blocklist', '--use-gl=angle'];

/** The switches that follow from `display` (the rest of the command line is chrome-args.ts's). */
export function displayArgs(display: LaunchDisplay): string[] {
  if (display.kind === 'virtual') {
    return [
      ...SOFTWARE_GL_ARGS,
      '--use-angle=gl',
      // The first window has the task windows' size (extension/tabs/task-window.ts).
      '--window-position=0,0',
      `--window-size=${BROWSER_WINDOW.width},${BROWSER_WINDOW.height}`,
    ];
  }
  return [
    '--headless',
    // Headless Chromium's screen is 800×600 unless told otherwise, and it shrinks the 1920×1080 task
    // windows (task-window.ts) to fit, leaving pages an 800×457 viewport.
    `--screen-info={${BROWSER_WINDOW.width}x${BROWSER_WINDOW.height}}`,
    '--disable-gpu',
    ...(display.userAgent === undefined ? [] : [`--user-agent=${display.userAgent}`]),
  ];
}

/** The platform part of Chrome's reduced user agent on each desktop system. */
const UA_PLATFORMS: Record<string, string> = {
  linux: 'X11; Linux x86_64',
  darwin: 'Macintosh; Intel Mac OS X 10_15_7',
  win32: 'Windows NT 10.0; Win64; x64',
};

/**
 * The user agent a person's desktop Chrome of this version sends: Chrome's reduced form, where
 * only the major version is real (`Chrome/156.0.0.0`).
 */
export function desktopChromeUserAgent(version: string, platform: string = process.platform): string {
  const major = /^(\d+)\./.exec(version)?.[1];
  if (major === undefined) throw new Error(`not a Chromium version: ${version}`);
  const system = UA_PLATFORMS[platform] ?? UA_PLATFORMS.linux;
  return `Mozilla/5.0 (${system}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}

/** The version the Chromium binary reports (`Chromium 156.0.8078.108` → `156.0.8078.108`). */
export async function readChromeVersion(chromePath: string): Promise<string> {
  const { stdout } = await promisify(execFile)(chromePath, ['--version'], { timeout: 10_000 });
  const version = /(\d+\.\d+\.\d+\.\d+)/.exec(stdout)?.[1];
  if (version === undefined) throw new Error(`${chromePath} --version said no version: ${stdout.trim()}`);
  return version;
}
