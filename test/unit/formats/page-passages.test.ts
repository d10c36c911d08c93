import { describe, expect, it } from 'vitest';
import { highlightsFormat } from '../../../server/scrape/enrich/formats/highlights-format';
import { bestPassages, queryTerms, splitPassages } from '../../../server/scrape/enrich/formats/page-passages';
import { directQuoteFormat, questionFormat } from '../../../server/scrape/enrich/formats/question-format';
import { LlmError, type LlmProvider } from '../../../server/platform/llm/llm-provider';

const PAGE = `# Keeping bees

Bees need a dry hive and a calm keeper. This page covers the basics.

## Smokers

A smoker calms the bees before you open the hive. Light it with dry grass and keep it puffing gently.

## Prices

The copper smoker costs 39.90 EUR and ships in two days.

The steel smoker costs 24.50 EUR.

## Winter

In winter the colony clusters to keep the queen warm; do not open the hive below 10 °C.`;

/** An LLM provider that answers from a list, records what it was asked, and fails when told to. */
function fakeLlm(answers: Array<string | Error>) {
  const asked: string[] = [];
  const llm: LlmProvider = {
    model: 'fake',
    async complete(messages) {
      asked.push(messages.map((message) => message.content).join('\n'));
      const answer = answers.shift() ?? '';
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return { llm, asked };
}

describe('page passages', () => {
  it('are the Markdown blocks under their headings, headings and rules left out', () => {
    const passages = splitPassages(`${PAGE}\n\n---\n\n`);
    expect(passages.map(({ title, text }) => [title, text.slice(0, 20)])).toEqual([
      ['Keeping bees', 'Bees need a dry hive'],
      ['Smokers', 'A smoker calms the b'],
      ['Prices', 'The copper smoker co'],
      ['Prices', 'The steel smoker cos'],
      ['Winter', 'In winter the colony'],
    ]);
  });

  it('cut long blocks at sentence ends', () => {
    const long = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} is about bees.`).join(' ');
    const passages = splitPassages(long);
    expect(passages.length).toBeGreaterThan(1);
    for (const passage of passages) expect(passage.text.length).toBeLessThanOrEqual(700);
    expect(passages.map(({ text }) => text).join(' ')).toBe(long);
  });

  it('keep the question content words, bounded', () => {
    expect(queryTerms('What does the copper smoker cost?')).toEqual(['copper', 'smoker', 'cost']);
    expect(queryTerms('what is it')).toEqual(['what', 'is', 'it']);
    expect(queryTerms('bee '.repeat(25_000) + ' hive')).toEqual(['bee']);
    expect(queryTerms(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '))).toHaveLength(32);
  });

  it('rank by the words they share with the question and come back in page order', () => {
    expect(bestPassages(PAGE, 'What does the copper smoker cost?')).toEqual([
      'The copper smoker costs 39.90 EUR and ships in two days.',
    ]);
    expect(bestPassages(PAGE, 'smoker price')).toEqual([
      'A smoker calms the bees before you open the hive. Light it with dry grass and keep it puffing gently.',
      'The copper smoker costs 39.90 EUR and ships in two days.',
      'The steel smoker costs 24.50 EUR.',
    ]);
    expect(bestPassages(PAGE, 'astronomy telescopes')).toEqual([]);
  });

  it('bring their heading along when only the heading holds the words asked for', () => {
    expect(bestPassages('### Mead\n\n5\n\n### Honey toast\n\n6.50', 'mead')).toEqual(['### Mead\n\n5']);
  });
});

describe('highlightsFormat', () => {
  it('answers with the best passages as one string, and warns when none matches', () => {
    expect(highlightsFormat(PAGE, 'winter queen')).toEqual({
      value: 'In winter the colony clusters to keep the queen warm; do not open the hive below 10 °C.',
    });
    expect(highlightsFormat(PAGE, 'telescopes')).toEqual({
      value: '',
      warning: 'No passage of the page matches the highlights query.',
    });
  });

  it('stays quick and bounded on a huge page and a 100 KB query', () => {
    const huge = Array.from({ length: 20_000 }, (_, i) => `Paragraph ${i} talks about hive ${i % 97}.`).join(
      '\n\n',
    );
    const { value } = highlightsFormat(huge, `hive ${'x'.repeat(100 * 1024)}`);
    expect(value?.split('\n\n').length).toBeLessThanOrEqual(3);
  });
});

describe('questionFormat', () => {
  it("asks the model with the page, and answers with the model's words", async () => {
    const { llm, asked } = fakeLlm(['It costs 39.90 EUR.']);
    expect(await questionFormat(PAGE, 'What does the copper smoker cost?', llm)).toEqual({
      value: 'It costs 39.90 EUR.',
    });
    expect(asked[0]).toContain('Question: What does the copper smoker cost?');
    expect(asked[0]).toContain('The steel smoker costs 24.50 EUR.');
  });

  it('answers with the best passage and a warning without a model, or when the model fails', async () => {
    expect(await questionFormat(PAGE, 'What does the copper smoker cost?', undefined)).toEqual({
      value: 'The copper smoker costs 39.90 EUR and ships in two days.',
      warning: expect.stringContaining('No LLM is configured, so no model answered'),
    });
    const { llm } = fakeLlm([new LlmError('the LLM endpoint answered 500')]);
    expect(await questionFormat(PAGE, 'When can I open the hive in winter?', llm)).toEqual({
      value: 'In winter the colony clusters to keep the queen warm; do not open the hive below 10 °C.',
      warning: expect.stringContaining(
        'The LLM could not answer the question (the LLM endpoint answered 500)',
      ),
    });
  });

  it('quotes the page verbatim for directQuote, whatever the model', () => {
    expect(directQuoteFormat(PAGE, 'steel smoker')).toEqual({ value: 'The steel smoker costs 24.50 EUR.' });
    expect(directQuoteFormat(PAGE, 'telescopes')).toEqual({
      value: '',
      warning: 'No passage of the page matches the question.',
    });
  });
});
