import type { MenuItem, MenuProfile, MenuSection } from '../../../../shared/api/responses/page-profiles';
import {
  availabilityOf,
  hasType,
  imagesOf,
  isObject,
  listOf,
  numberOf,
  textOf,
  typesOf,
  urlOf,
  walkObjects,
} from './schema-org';
import type { JsonObject } from './structured-data';

/** schema.org FoodEstablishment and its subtypes: whose menu it is. */
const MERCHANT_TYPES = [
  'FoodEstablishment',
  'Restaurant',
  'FastFoodRestaurant',
  'CafeOrCoffeeShop',
  'BarOrPub',
  'Bakery',
  'Brewery',
  'Distillery',
  'Winery',
  'IceCreamShop',
];
const MAX_SECTIONS = 200;
const MAX_ITEMS = 5_000;
const MAX_SECTION_DEPTH = 4;

/** `https://schema.org/GlutenFreeDiet` → `gluten-free`. */
function dietName(value: unknown): string | undefined {
  const raw =
    typeof value === 'string'
      ? value
      : isObject(value)
        ? (textOf(value['@id']) ?? textOf(value.name))
        : undefined;
  if (raw === undefined) return undefined;
  const name = raw
    .replace(/^.*[/#]/, '')
    .replace(/Diet$/, '')
    .replace(/([a-z])([A-Z])/g, '$1-$2')
    .toLowerCase();
  return name === '' ? undefined : name;
}

interface Reading {
  pageUrl: string;
  items: number;
  currency: string | undefined;
}

function readItem(item: JsonObject, id: string, reading: Reading): MenuItem | undefined {
  const name = textOf(item.name);
  if (name === undefined) return undefined;
  const offers = listOf(item.offers).filter(isObject);
  const offer = offers.find((candidate) => numberOf(candidate.price) !== undefined) ?? offers[0];
  const amount = offer === undefined ? undefined : numberOf(offer.price);
  const currency = offer === undefined ? undefined : textOf(offer.priceCurrency);
  reading.currency ??= currency;
  const description = textOf(item.description);
  const calories = isObject(item.nutrition) ? numberOf(item.nutrition.calories) : undefined;
  const merchantItemId = textOf(item.identifier) ?? textOf(item.sku);
  const url = urlOf(item.url, reading.pageUrl);
  return {
    id: textOf(item['@id']) ?? id,
    name,
    ...(description === undefined ? {} : { description }),
    images: imagesOf(item.image, reading.pageUrl),
    ...(amount === undefined ? {} : { price: currency === undefined ? { amount } : { amount, currency } }),
    // A listed item counts as available unless the page says otherwise (as with product offers).
    availability: (offer === undefined ? undefined : availabilityOf(offer.availability)) ?? { inStock: true },
    dietary: [
      ...new Set(
        listOf(item.suitableForDiet)
          .map(dietName)
          .filter((diet) => diet !== undefined),
      ),
    ],
    ...(calories === undefined ? {} : { calories }),
    optionGroups: [],
    identifiers: merchantItemId === undefined ? {} : { merchantItemId },
    ...(url === undefined ? {} : { url }),
    sourceUrl: reading.pageUrl,
  };
}

/**
 * A section and the sections inside it, flattened in page order, each named after the sections it
 * sits in (`Starters › Soups`). `path` is what the section's own name is put after; the section
 * itself joins the path of its inner sections unless `unnamed` (a page's only Menu, whose name
 * would only repeat on every section).
 */
function readSections(
  section: JsonObject,
  { path, depth, unnamed }: { path: string[]; depth: number; unnamed: boolean },
  reading: Reading,
  sections: MenuSection[],
): void {
  if (sections.length >= MAX_SECTIONS) return;
  const own = textOf(section.name);
  const name = [...path, own ?? 'Menu'].join(' › ');
  const id = textOf(section['@id']) ?? `section-${sections.length + 1}`;
  const items: MenuItem[] = [];
  for (const item of listOf(section.hasMenuItem).filter(isObject)) {
    if (reading.items >= MAX_ITEMS) break;
    const read = readItem(item, `${id}-item-${items.length + 1}`, reading);
    if (read === undefined) continue;
    items.push(read);
    reading.items += 1;
  }
  const description = textOf(section.description);
  if (items.length > 0)
    sections.push({ id, name, ...(description === undefined ? {} : { description }), items });
  if (depth >= MAX_SECTION_DEPTH) return;
  const inner = {
    path: own === undefined || unnamed ? path : [...path, own],
    depth: depth + 1,
    unnamed: false,
  };
  for (const child of listOf(section.hasMenuSection).filter(isObject))
    readSections(child, inner, reading, sections);
}

/**
 * The menu format from what the page publishes as schema.org data (JSON-LD or microdata): Menus
 * (a FoodEstablishment's `hasMenu`, or standing alone), their MenuSections, nested sections
 * flattened, and MenuItems with their offers' price and availability, diets and calories.
 * Sections or items published without a Menu are read too. Undefined when the page publishes no
 * menu item; the merchant is the FoodEstablishment, else the site's name.
 */
export function menuFromStructuredData(
  structured: readonly JsonObject[],
  pageUrl: string,
  siteName: string | undefined,
): MenuProfile | undefined {
  const objects = walkObjects(structured);
  const reading: Reading = { pageUrl, items: 0, currency: undefined };
  const sections: MenuSection[] = [];
  const menus = objects.filter((object) => hasType(object, ['Menu']));
  // A MenuSection that another section holds is read with its parent, not again on its own.
  const nested = new Set(objects.flatMap((object) => listOf(object.hasMenuSection)));
  const roots =
    menus.length > 0
      ? menus
      : objects.filter((object) => hasType(object, ['MenuSection']) && !nested.has(object));
  const unnamed = roots.length === 1;
  for (const root of roots) readSections(root, { path: [], depth: 0, unnamed }, reading, sections);
  if (sections.length === 0) {
    const items = objects.filter((object) => hasType(object, ['MenuItem']));
    const all = { name: 'Menu', hasMenuItem: items };
    if (items.length > 0) readSections(all, { path: [], depth: 0, unnamed: true }, reading, sections);
  }
  if (sections.length === 0) return undefined;

  const merchant = objects.find((object) => hasType(object, MERCHANT_TYPES));
  const location = merchant?.address;
  return {
    isMenu: true,
    confidence: 1,
    merchant: {
      name: textOf(merchant?.name) ?? siteName ?? '',
      type: merchant === undefined ? null : (typesOf(merchant)[0] ?? null),
      ...(location === undefined ? {} : { location }),
    },
    currency: reading.currency ?? null,
    sections,
    sourceUrl: pageUrl,
  };
}
