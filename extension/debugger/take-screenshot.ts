import type { CdpSession } from './cdp-session';

/**
 * Full-page captures repeat or clip beyond 16,384 px, the GPU texture limit (puppeteer #359,
 * lighthouse #11121; docs/extension.md#screenshots), so full pages are cut at this height.
 */
export const MAX_FULL_PAGE_HEIGHT_PX = 16_384;

export interface ScreenshotOptions {
  fullPage: boolean;
  /** JPEG quality 1–100; PNG when absent. */
  quality?: number | undefined;
  /** CSS pixels to lay the page out at for this shot. */
  viewport?: { width: number; height: number } | undefined;
}

/**
 * A screenshot of the task's tab as a data URL. The tab is the active tab of its own window
 * (task-window.ts), which is what makes Page.captureScreenshot fast: in a background tab the
 * compositor commits no frames and full-page captures hang (docs/extension.md#screenshots).
 */
export async function takeScreenshot(
  cdp: CdpSession,
  options: ScreenshotOptions,
  restoreViewport: () => Promise<void>,
): Promise<string> {
  const format = options.quality === undefined ? 'png' : 'jpeg';
  if (options.viewport !== undefined) {
    await cdp.send('Emulation.setDeviceMetricsOverride', {
      width: options.viewport.width,
      height: options.viewport.height,
      deviceScaleFactor: 1,
      mobile: false,
    });
  }
  try {
    let clip: Record<string, number> | undefined;
    if (options.fullPage) {
      const { cssContentSize } = await cdp.send<{ cssContentSize: { width: number; height: number } }>(
        'Page.getLayoutMetrics',
      );
      clip = {
        x: 0,
        y: 0,
        width: Math.ceil(cssContentSize.width),
        height: Math.min(Math.ceil(cssContentSize.height), MAX_FULL_PAGE_HEIGHT_PX),
        scale: 1,
      };
    }
    const { data } = await cdp.send<{ data: string }>('Page.captureScreenshot', {
      format,
      ...(options.quality === undefined ? {} : { quality: options.quality }),
      ...(clip === undefined ? {} : { clip, captureBeyondViewport: true }),
    });
    return `data:image/${format};base64,${data}`;
  } finally {
    if (options.viewport !== undefined) await restoreViewport();
  }
}
