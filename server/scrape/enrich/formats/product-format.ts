import { z } from 'zod';
import { type ProductProfile, ProductVariant } from '../../../../shared/api/responses/page-profiles';
import { askForJson, LlmError, type LlmProvider } from '../../../platform/llm';
import type { FormatOutcome } from './json-format';
import { keepImagesOnPage } from './keep-images-on-page';

const PRICE = {
  type: 'object',
  properties: { amount: { type: 'number' }, currency: { type: 'string' }, formatted: { type: 'string' } },
  required: ['amount'],
};

/** What the model is asked for: a ProductProfile without its url (the page's), and whether there is one. */
const ANSWER_SHAPE = {
  type: 'object',
  properties: {
    isProduct: { type: 'boolean', description: 'false when the page is not about one product' },
    title: { type: 'string' },
    brand: { type: 'string' },
    category: { type: 'string' },
    description: { type: 'string' },
    variants: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          sku: { type: 'string' },
          title: { type: 'string' },
          values: { type: 'object', description: 'option values, e.g. {"size": "M"}' },
          price: PRICE,
          sale: { type: 'object', properties: { originalPrice: PRICE } },
          availability: {
            type: 'object',
            properties: { inStock: { type: 'boolean' }, text: { type: 'string' } },
            required: ['inStock'],
          },
          images: {
            type: 'array',
            items: { type: 'object', properties: { url: { type: 'string' }, alt: { type: 'string' } } },
          },
        },
        required: ['availability'],
      },
    },
  },
  required: ['isProduct'],
};

const PROMPT =
  'Describe the product this page sells, as JSON matching this JSON Schema: ' +
  `${JSON.stringify(ANSWER_SHAPE)}. Use only what the page states; leave out any field it does not ` +
  'state. If the page does not present one product for sale, answer {"isProduct": false}.';

const Answer = z.looseObject({
  isProduct: z.boolean(),
  title: z.string().trim().min(1).optional().catch(undefined),
  brand: z.string().optional().catch(undefined),
  category: z.string().optional().catch(undefined),
  description: z.string().optional().catch(undefined),
  variants: z.array(z.unknown()).optional().catch(undefined),
});

const noProduct = (why: string) => `The page states no product${why}, so product was left out.`;

/**
 * The product format: what the page publishes as schema.org data (read by the derivation worker,
 * product-from-structured-data.ts); without it, the model's reading of the page when an LLM is
 * configured (variants it cannot shape and image URLs the page does not hold are dropped);
 * without either, nothing, and a warning saying the page states no product.
 */
export async function productFormat({
  published,
  markdown,
  pageUrl,
  llm,
}: {
  published: ProductProfile | undefined;
  markdown: string;
  pageUrl: string;
  llm: LlmProvider | undefined;
}): Promise<FormatOutcome<ProductProfile>> {
  if (published !== undefined) return { value: published };
  if (llm === undefined)
    return { warning: noProduct(' as schema.org data, and no LLM is configured to read one') };
  let answer: z.infer<typeof Answer>;
  try {
    const parsed = Answer.safeParse(await askForJson(llm, { content: markdown, prompt: PROMPT }));
    if (!parsed.success) return { warning: noProduct(' the LLM could read') };
    answer = parsed.data;
  } catch (err) {
    if (!(err instanceof LlmError)) throw err;
    return {
      warning: `The LLM could not read a product from the page (${err.message}), so product was left out.`,
    };
  }
  if (!answer.isProduct || answer.title === undefined) return { warning: noProduct('') };
  const variants = (answer.variants ?? []).flatMap((variant) => {
    const parsed = ProductVariant.safeParse(variant);
    if (!parsed.success) return [];
    const images = keepImagesOnPage(parsed.data.images, markdown, pageUrl);
    const { images: _all, ...rest } = parsed.data;
    return [images.length > 0 ? { ...rest, images } : rest];
  });
  return {
    value: {
      title: answer.title,
      ...(answer.brand === undefined ? {} : { brand: answer.brand }),
      ...(answer.category === undefined ? {} : { category: answer.category }),
      url: pageUrl,
      ...(answer.description === undefined ? {} : { description: answer.description }),
      variants,
    },
  };
}
