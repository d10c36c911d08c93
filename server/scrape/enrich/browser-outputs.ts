import type { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { ActionOutputs, BrowserClass, PageCapture } from '../../../shared/protocol/messages';
import { scrapeCredits } from '../admit';

/**
 * `data.actions` and `data.screenshot` from what the browser's actions produced (docs/wire-contract.md §3.2,
 * §3.5): the screenshot format ran as the last screenshot action, so the last image is
 * `data.screenshot` and is not repeated in `actions.screenshots`; `data.actions` is there only
 * when the caller gave actions.
 */
export function browserOutputs(
  capture: PageCapture,
  request: ScrapeRequestV2,
): { screenshot?: string; actions?: ActionOutputs } {
  const outputs = capture.actions;
  if (outputs === undefined) return {};
  const wantsScreenshot = request.formats.some((format) => format.type === 'screenshot');
  const screenshots = wantsScreenshot ? outputs.screenshots.slice(0, -1) : outputs.screenshots;
  const screenshot = wantsScreenshot ? outputs.screenshots.at(-1) : undefined;
  return {
    ...(screenshot === undefined ? {} : { screenshot }),
    ...((request.actions?.length ?? 0) > 0 ? { actions: { ...outputs, screenshots } } : {}),
  };
}

/** `metadata.proxyUsed` and `metadata.creditsUsed` for a page captured by a browser of this class. */
export function proxyMetadata(browserClass: BrowserClass | undefined): {
  proxyUsed: BrowserClass;
  creditsUsed: number;
} {
  const proxyUsed = browserClass ?? 'basic';
  return { proxyUsed, creditsUsed: scrapeCredits({ proxyUsed }) };
}
