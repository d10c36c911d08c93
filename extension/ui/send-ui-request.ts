import type { z } from 'zod';
import { browser } from 'wxt/browser';
import { UiResponse, type UiRequest } from './ui-messages';

export type UiAnswer<T extends UiRequest['type']> = z.infer<(typeof UiResponse)[T]>;

/**
 * Asks the background worker and parses its answer with the contract's schema. Throws with a
 * message a page can show when the worker cannot be reached or answers something unexpected.
 */
export async function sendUiRequest<T extends UiRequest['type']>(
  request: Extract<UiRequest, { type: T }>,
): Promise<UiAnswer<T>> {
  let answer: unknown;
  try {
    answer = await browser.runtime.sendMessage(request);
  } catch (error) {
    throw new Error(`Tabhive’s background worker did not answer (${(error as Error).message}).`, {
      cause: error,
    });
  }
  const parsed = UiResponse[request.type as T].safeParse(answer);
  if (!parsed.success)
    throw new Error('Tabhive’s background worker gave an answer this page does not understand.');
  return parsed.data as UiAnswer<T>;
}
