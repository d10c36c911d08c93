import { describe, expect, it } from 'vitest';
import {
  extractiveSummary,
  splitSentences,
} from '../../../../server/scrape/enrich/formats/extractive-summary';

const ARTICLE = `# Honey bees in winter

Honey bees survive the winter by forming a tight cluster inside the hive. The bees in the cluster shiver their flight muscles to keep the queen warm.

![A cluster](https://example.com/cluster.jpg)

Beekeepers leave enough honey in the hive so the bees can eat through the cold months. A strong colony needs about twenty kilograms of honey to last until spring.

| month | honey |
| --- | --- |
| Jan | 4 kg |

- Check the [hive entrance](https://example.com/entrance) after snow.
- Mice like warm hives too.

The cluster moves slowly across the frames as the bees eat the stored honey.`;

describe('extractiveSummary', () => {
  it('splits prose into sentences and leaves out tables, images and headings', () => {
    const sentences = splitSentences(ARTICLE);
    expect(sentences).toContain('Check the hive entrance after snow.');
    expect(sentences.join(' ')).not.toMatch(/\||!\[|https:|#/);
    expect(sentences).not.toContain('Mice like warm hives too.'.slice(0, 5));
  });

  it('picks the sentences that carry the page’s frequent words, in page order', () => {
    const summary = extractiveSummary(ARTICLE);
    expect(summary).toContain('Honey bees survive the winter by forming a tight cluster inside the hive.');
    expect(summary.split(/(?<=\.)\s/).length).toBeGreaterThanOrEqual(2);
    expect(summary.split(/(?<=\.)\s/).length).toBeLessThanOrEqual(5);
    const positions = summary.split(/(?<=\.)\s/).map((sentence) => ARTICLE.indexOf(sentence));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('is deterministic, and empty for a page without prose', () => {
    expect(extractiveSummary(ARTICLE)).toBe(extractiveSummary(ARTICLE));
    expect(extractiveSummary('| a | b |\n| - | - |\n')).toBe('');
  });
});
