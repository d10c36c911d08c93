import { describe, expect, it } from 'vitest';
import type { PageCapture } from '../../../shared/protocol/messages';
import { createDerivationMemo, deriveOptionsKey } from '../../../server/scrape/derive/derivation-memo';
import type { PageDerivation, PageDeriveOptions } from '../../../server/scrape/derive/derive-page';

const capture: PageCapture = {
  url: 'https://a.test/',
  statusCode: 200,
  rawHtml: '<p>a</p>',
  renderedHtml: '<p>a</p>',
};
const options = (formats: string[], onlyMainContent = true) =>
  ({
    formats: new Set(formats),
    onlyMainContent,
    removeBase64Images: true,
    parsePdf: true,
  }) as PageDeriveOptions;

function counting() {
  let runs = 0;
  const derive = async (_capture: PageCapture, given: PageDeriveOptions): Promise<PageDerivation> => {
    runs += 1;
    await new Promise((resolve) => setTimeout(resolve, 5));
    return {
      markdown: `run ${runs}`,
      links: ['https://a.test/x'],
      metadata: { title: 'A' },
      pdfPages: given.parsePdf ? 0 : 1,
    };
  };
  return { derive, runs: () => runs };
}

describe('the derivation memo', () => {
  it('derives an entry once per options, concurrent askers included', async () => {
    const memo = createDerivationMemo();
    const { derive, runs } = counting();
    const markdown = options(['markdown', 'links']);
    const key = deriveOptionsKey(markdown);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => memo.derive('entry-1', capture, markdown, key, derive)),
    );
    expect(new Set(results).size).toBe(1);
    expect(runs()).toBe(1);
    // The same options in another order are the same key; other options or another entry are not.
    expect(deriveOptionsKey(options(['links', 'markdown']))).toBe(key);
    await memo.derive('entry-1', capture, markdown, deriveOptionsKey(options(['links', 'markdown'])), derive);
    expect(runs()).toBe(1);
    const whole = options(['markdown', 'links'], false);
    await memo.derive('entry-1', capture, whole, deriveOptionsKey(whole), derive);
    await memo.derive('entry-2', capture, markdown, key, derive);
    expect(runs()).toBe(3);
  });

  it('hands out frozen derivations, and keeps no failure', async () => {
    const memo = createDerivationMemo();
    const { derive, runs } = counting();
    const markdown = options(['markdown']);
    const key = deriveOptionsKey(markdown);
    const derived = await memo.derive('entry', capture, markdown, key, derive);
    expect(Object.isFrozen(derived)).toBe(true);
    expect(Object.isFrozen(derived.links)).toBe(true);
    expect(Object.isFrozen(derived.metadata)).toBe(true);

    let failures = 0;
    const failing = async () => {
      failures += 1;
      throw new Error('bad selector');
    };
    await expect(memo.derive('broken', capture, markdown, key, failing)).rejects.toThrow('bad selector');
    await expect(memo.derive('broken', capture, markdown, key, failing)).rejects.toThrow('bad selector');
    expect([failures, runs()]).toEqual([2, 1]);
  });

  it('keeps a derivation made elsewhere, within its bounds', async () => {
    const memo = createDerivationMemo({ maxEntries: 2 });
    const { derive, runs } = counting();
    const markdown = options(['markdown']);
    const key = deriveOptionsKey(markdown);
    memo.remember('fast', key, { markdown: 'fetched', metadata: {}, pdfPages: 0 });
    expect((await memo.derive('fast', capture, markdown, key, derive)).markdown).toBe('fetched');
    await memo.derive('b', capture, markdown, key, derive);
    await memo.derive('c', capture, markdown, key, derive);
    expect(memo.size).toBe(2);
    expect((await memo.derive('fast', capture, markdown, key, derive)).markdown).not.toBe('fetched');
    expect(runs()).toBe(3);
  });
});
