import { describe, expect, it } from 'vitest';
import { fitResult } from '../../../extension/tasks/fit-result';
import type { ResultMessage } from '../../../shared/protocol/messages';

const result = (rawHtml: string): ResultMessage => ({
  type: 'result',
  taskId: 't1',
  ok: true,
  capture: { url: 'https://a.test/', statusCode: 200, rawHtml, renderedHtml: '' },
});

describe('results that must fit in one hub frame', () => {
  it('sends a result that fits as it is', () => {
    const message = result('<p>small</p>');
    expect(fitResult(message, 1_000)).toBe(message);
  });

  it('sends one whose worst-case size is over the limit but whose real size is not', () => {
    // 150 plain characters: 900 bytes at worst (every one escaped), about 230 as they are.
    const message = result('a'.repeat(150));
    expect(fitResult(message, 400)).toBe(message);
  });

  it('replaces one that does not with a task error, counting bytes rather than characters', () => {
    expect(fitResult(result('é'.repeat(400)), 900)).toEqual({
      type: 'result',
      taskId: 't1',
      ok: false,
      error: {
        code: 'BROWSER_ERROR',
        message: expect.stringContaining('more than the 900 one message may carry'),
      },
    });
  });
});
