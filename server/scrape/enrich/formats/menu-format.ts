import { z } from 'zod';
import type { MenuItem, MenuProfile, MenuSection } from '../../../../shared/api/responses/page-profiles';
import { askForJson, LlmError, type LlmProvider } from '../../../platform/llm';
import type { FormatOutcome } from './json-format';

/** What the model is asked for: sections of items, and whether the page is a menu at all. */
const ANSWER_SHAPE = {
  type: 'object',
  properties: {
    isMenu: { type: 'boolean', description: 'false when the page holds no menu of food or drink' },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
    merchant: { type: 'object', properties: { name: { type: 'string' }, type: { type: 'string' } } },
    currency: { type: 'string' },
    sections: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          description: { type: 'string' },
          items: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                name: { type: 'string' },
                description: { type: 'string' },
                price: { type: 'number' },
                currency: { type: 'string' },
                inStock: { type: 'boolean', description: 'false only when the page says it is unavailable' },
                dietary: { type: 'array', items: { type: 'string' } },
                calories: { type: 'number' },
              },
              required: ['name'],
            },
          },
        },
        required: ['name', 'items'],
      },
    },
  },
  required: ['isMenu'],
};

const PROMPT =
  'Read the menu on this page as JSON matching this JSON Schema: ' +
  `${JSON.stringify(ANSWER_SHAPE)}. Use only what the page states; leave out any field it does not ` +
  'state. If the page holds no menu, answer {"isMenu": false}.';

const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
const Item = z.object({
  name: z.string().trim().min(1),
  description: optional(z.string()),
  price: optional(z.number()),
  currency: optional(z.string()),
  inStock: optional(z.boolean()),
  dietary: optional(z.array(z.string())),
  calories: optional(z.number()),
});
const Answer = z.object({
  isMenu: z.boolean(),
  confidence: optional(z.number().min(0).max(1)),
  merchant: optional(z.object({ name: optional(z.string()), type: optional(z.string()) })),
  currency: optional(z.string()),
  sections: optional(
    z.array(
      z.object({
        name: optional(z.string()),
        description: optional(z.string()),
        items: z.array(z.unknown()),
      }),
    ),
  ),
});

const noMenu = (why: string) => `The page states no menu${why}, so menu was left out.`;

/** The model's sections as MenuProfile sections: items it could not shape are dropped. */
function sectionsOf(answer: z.infer<typeof Answer>, pageUrl: string): MenuSection[] {
  return (answer.sections ?? []).flatMap((section, sectionIndex) => {
    const id = `section-${sectionIndex + 1}`;
    const items = section.items.flatMap((raw, itemIndex): MenuItem[] => {
      const parsed = Item.safeParse(raw);
      if (!parsed.success) return [];
      const { name, description, price, currency, inStock, dietary, calories } = parsed.data;
      const itemCurrency = currency ?? answer.currency;
      return [
        {
          id: `${id}-item-${itemIndex + 1}`,
          name,
          ...(description === undefined ? {} : { description }),
          images: [],
          ...(price === undefined
            ? {}
            : {
                price:
                  itemCurrency === undefined ? { amount: price } : { amount: price, currency: itemCurrency },
              }),
          availability: { inStock: inStock ?? true },
          dietary: dietary ?? [],
          ...(calories === undefined ? {} : { calories }),
          optionGroups: [],
          identifiers: {},
          sourceUrl: pageUrl,
        },
      ];
    });
    if (items.length === 0) return [];
    const name = section.name ?? 'Menu';
    return [
      { id, name, ...(section.description === undefined ? {} : { description: section.description }), items },
    ];
  });
}

/**
 * The menu format: what the page publishes as schema.org data (read by the derivation worker,
 * menu-from-structured-data.ts); without it, the model's reading of the page when an LLM is
 * configured (with the model's own confidence); without either, nothing, and a warning saying
 * the page states no menu.
 */
export async function menuFormat({
  published,
  markdown,
  pageUrl,
  llm,
}: {
  published: MenuProfile | undefined;
  markdown: string;
  pageUrl: string;
  llm: LlmProvider | undefined;
}): Promise<FormatOutcome<MenuProfile>> {
  if (published !== undefined) return { value: published };
  if (llm === undefined)
    return { warning: noMenu(' as schema.org data, and no LLM is configured to read one') };
  let answer: z.infer<typeof Answer>;
  try {
    const parsed = Answer.safeParse(await askForJson(llm, { content: markdown, prompt: PROMPT }));
    if (!parsed.success) return { warning: noMenu(' the LLM could read') };
    answer = parsed.data;
  } catch (err) {
    if (!(err instanceof LlmError)) throw err;
    return { warning: `The LLM could not read a menu from the page (${err.message}), so menu was left out.` };
  }
  const sections = answer.isMenu ? sectionsOf(answer, pageUrl) : [];
  if (sections.length === 0) return { warning: noMenu('') };
  return {
    value: {
      isMenu: true,
      confidence: answer.confidence ?? 0.5,
      merchant: { name: answer.merchant?.name ?? '', type: answer.merchant?.type ?? null },
      currency: answer.currency ?? null,
      sections,
      sourceUrl: pageUrl,
    },
  };
}
