import { describe, expect, it } from 'vitest';
import type { ProductProfile } from '../../../shared/api/responses/page-profiles';
import { LlmError, type LlmProvider } from '../../../server/platform/llm/llm-provider';
import { menuFormat } from '../../../server/scrape/enrich/formats/menu-format';
import { productFormat } from '../../../server/scrape/enrich/formats/product-format';

const PAGE_URL = 'https://shop.test/smoker';
const MARKDOWN =
  '# Copper Smoker\n\n![Smoker](https://shop.test/img/smoker.jpg)\n\nOnly 39.90 EUR. In stock.';

function fakeLlm(answers: Array<string | Error>): LlmProvider & { asked: number } {
  const llm = {
    model: 'fake',
    asked: 0,
    async complete() {
      llm.asked += 1;
      const answer = answers.shift() ?? '{}';
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return llm;
}

const PUBLISHED: ProductProfile = { title: 'Copper Smoker', url: PAGE_URL, variants: [] };

describe('productFormat', () => {
  it('answers with the published product without asking a model', async () => {
    const llm = fakeLlm([]);
    expect(await productFormat({ published: PUBLISHED, markdown: MARKDOWN, pageUrl: PAGE_URL, llm })).toEqual(
      {
        value: PUBLISHED,
      },
    );
    expect(llm.asked).toBe(0);
  });

  it('without published data and without a model, leaves product out and says why', async () => {
    expect(
      await productFormat({ published: undefined, markdown: MARKDOWN, pageUrl: PAGE_URL, llm: undefined }),
    ).toEqual({
      warning:
        'The page states no product as schema.org data, and no LLM is configured to read one, so product was left out.',
    });
  });

  it("takes the model's reading, keeping the page's URL and only images the page holds", async () => {
    const llm = fakeLlm([
      JSON.stringify({
        isProduct: true,
        title: 'Copper Smoker',
        variants: [
          {
            price: { amount: 39.9, currency: 'EUR' },
            availability: { inStock: true, text: 'In stock' },
            images: [{ url: 'https://shop.test/img/smoker.jpg' }, { url: 'https://made.up/img.jpg' }],
          },
          { title: 'no availability' },
        ],
      }),
    ]);
    expect(await productFormat({ published: undefined, markdown: MARKDOWN, pageUrl: PAGE_URL, llm })).toEqual(
      {
        value: {
          title: 'Copper Smoker',
          url: PAGE_URL,
          variants: [
            {
              price: { amount: 39.9, currency: 'EUR' },
              availability: { inStock: true, text: 'In stock' },
              images: [{ url: 'https://shop.test/img/smoker.jpg' }],
            },
          ],
        },
      },
    );
  });

  it('leaves product out when the model finds none or fails', async () => {
    const none = fakeLlm(['{"isProduct": false}']);
    expect(
      (await productFormat({ published: undefined, markdown: MARKDOWN, pageUrl: PAGE_URL, llm: none }))
        .warning,
    ).toBe('The page states no product, so product was left out.');
    const failing = fakeLlm([new LlmError('the LLM endpoint answered 503: busy')]);
    const result = await productFormat({
      published: undefined,
      markdown: MARKDOWN,
      pageUrl: PAGE_URL,
      llm: failing,
    });
    expect(result.value).toBeUndefined();
    expect(result.warning).toContain(
      'The LLM could not read a product from the page (the LLM endpoint answered 503: busy)',
    );
  });
});

describe('menuFormat', () => {
  it('without published data and without a model, leaves menu out and says why', async () => {
    expect(
      (await menuFormat({ published: undefined, markdown: '# Menu', pageUrl: PAGE_URL, llm: undefined }))
        .warning,
    ).toBe(
      'The page states no menu as schema.org data, and no LLM is configured to read one, so menu was left out.',
    );
  });

  it("shapes the model's reading as a MenuProfile, dropping items it cannot read", async () => {
    const llm = fakeLlm([
      JSON.stringify({
        isMenu: true,
        confidence: 0.8,
        merchant: { name: 'Hive Bistro' },
        currency: 'EUR',
        sections: [
          {
            name: 'Starters',
            items: [{ name: 'Honey toast', price: 6.5, dietary: ['vegetarian'] }, { price: 3 }],
          },
          { name: 'Empty', items: [] },
        ],
      }),
    ]);
    expect(
      (await menuFormat({ published: undefined, markdown: '# Menu', pageUrl: PAGE_URL, llm })).value,
    ).toEqual({
      isMenu: true,
      confidence: 0.8,
      merchant: { name: 'Hive Bistro', type: null },
      currency: 'EUR',
      sections: [
        {
          id: 'section-1',
          name: 'Starters',
          items: [
            {
              id: 'section-1-item-1',
              name: 'Honey toast',
              images: [],
              price: { amount: 6.5, currency: 'EUR' },
              availability: { inStock: true },
              dietary: ['vegetarian'],
              optionGroups: [],
              identifiers: {},
              sourceUrl: PAGE_URL,
            },
          ],
        },
      ],
      sourceUrl: PAGE_URL,
    });
  });

  it('leaves menu out when the model says the page has none', async () => {
    const llm = fakeLlm(['{"isMenu": false}']);
    const result = await menuFormat({ published: undefined, markdown: '# About us', pageUrl: PAGE_URL, llm });
    expect(result).toEqual({ warning: 'The page states no menu, so menu was left out.' });
  });
});
