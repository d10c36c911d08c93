import type { InPageCapture } from '../../page/capture-page';
import type { HandScrape } from '../../ui/convert-capture';

type Answer = { id: number; ok: true; scrape: HandScrape } | { id: number; ok: false; message: string };

/** The popup's side of convert-worker.ts: one worker for the popup's life, answers by request id. */
export function createConverter() {
  const worker = new Worker(new URL('./convert-worker.ts', import.meta.url), { type: 'module' });
  const waiting = new Map<number, { resolve(scrape: HandScrape): void; reject(error: Error): void }>();
  let nextId = 0;
  worker.onmessage = (event: MessageEvent<Answer>) => {
    const answer = event.data;
    const pending = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (answer.ok) pending?.resolve(answer.scrape);
    else pending?.reject(new Error(`The page could not be converted: ${answer.message}`));
  };
  worker.onerror = (event) => {
    for (const pending of waiting.values())
      pending.reject(new Error(`The converter stopped: ${event.message}`));
    waiting.clear();
  };
  return {
    convert(capture: InPageCapture, onlyMainContent: boolean): Promise<HandScrape> {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, capture, onlyMainContent });
      });
    },
  };
}
