import { z } from 'zod';

/**
 * The product and menu formats' answers, in the shapes Firecrawl's clients type them
 * (`ProductProfile`, `MenuProfile`). Loose, as the Python client's models are: a page may state
 * more than these fields name.
 */

const Price = z.looseObject({
  amount: z.number(),
  currency: z.string().optional(),
  /** The price as the page wrote it. */
  formatted: z.string().optional(),
});

const Availability = z.looseObject({ inStock: z.boolean(), text: z.string().optional() });
const Image = z.looseObject({ url: z.string(), alt: z.string().optional() });

export const ProductVariant = z.looseObject({
  id: z.string().optional(),
  sku: z.string().optional(),
  title: z.string().optional(),
  values: z.record(z.string(), z.unknown()).optional(),
  price: Price.optional(),
  sale: z.looseObject({ originalPrice: Price }).optional(),
  availability: Availability,
  images: z.array(Image).optional(),
});
export type ProductVariant = z.infer<typeof ProductVariant>;

export const ProductProfile = z.looseObject({
  title: z.string(),
  brand: z.string().optional(),
  category: z.string().optional(),
  url: z.string(),
  description: z.string().optional(),
  variants: z.array(ProductVariant),
});
export type ProductProfile = z.infer<typeof ProductProfile>;

export const MenuItem = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  images: z.array(Image),
  price: Price.optional(),
  availability: Availability,
  dietary: z.array(z.string()),
  calories: z.number().optional(),
  optionGroups: z.array(z.unknown()),
  identifiers: z.looseObject({ merchantItemId: z.string().optional() }),
  url: z.string().optional(),
  sourceUrl: z.string(),
});
export type MenuItem = z.infer<typeof MenuItem>;

export const MenuSection = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  items: z.array(MenuItem),
});
export type MenuSection = z.infer<typeof MenuSection>;

export const MenuProfile = z.looseObject({
  isMenu: z.boolean(),
  /** 1 when the page publishes the menu as schema.org data; the model's own estimate otherwise. */
  confidence: z.number().min(0).max(1),
  merchant: z.looseObject({
    name: z.string(),
    type: z.string().nullable().optional(),
    location: z.unknown().optional(),
  }),
  currency: z.string().nullable().optional(),
  sections: z.array(MenuSection),
  sourceUrl: z.string(),
});
export type MenuProfile = z.infer<typeof MenuProfile>;
