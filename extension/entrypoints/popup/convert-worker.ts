import type { InPageCapture } from '../../page/capture-page';
import { convertCapture } from '../../ui/convert-capture';

/**
 * Converts captures off the popup's thread: Readability and the Markdown rules take seconds on a
 * very long page, and the popup should stay responsive meanwhile.
 */
self.onmessage = (event: MessageEvent<{ id: number; capture: InPageCapture; onlyMainContent: boolean }>) => {
  const { id, capture, onlyMainContent } = event.data;
  try {
    self.postMessage({ id, ok: true, scrape: convertCapture(capture, { onlyMainContent }) });
  } catch (error) {
    self.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
};
