import type { ProductProfile, ProductVariant } from '../../../../shared/api/responses/page-profiles';
import {
  availabilityOf,
  hasType,
  imagesOf,
  isObject,
  listOf,
  numberOf,
  textOf,
  urlOf,
  walkObjects,
} from './schema-org';
import type { JsonObject } from './structured-data';

const PRODUCT_TYPES = ['Product', 'IndividualProduct', 'ProductModel', 'SomeProducts', 'Vehicle', 'Car'];
/** Variant properties schema.org names (ProductGroup `variesBy`), read when a variant states them. */
const VARIANT_PROPERTIES = ['color', 'size', 'material', 'pattern', 'suggestedAge', 'suggestedGender'];
/** priceSpecification priceTypes that name the price before a sale. */
const ORIGINAL_PRICE = /(ListPrice|StrikethroughPrice|MSRP|SRP)$/;
const MAX_VARIANTS = 500;

type Price = NonNullable<ProductVariant['price']>;

function priceOf(amount: unknown, currency: unknown): Price | undefined {
  const value = numberOf(amount);
  if (value === undefined) return undefined;
  const code = textOf(currency);
  return code === undefined ? { amount: value } : { amount: value, currency: code };
}

/** The offer's price, from `price` or its first priced priceSpecification. */
function offerPrice(offer: JsonObject): Price | undefined {
  const direct = priceOf(offer.price, offer.priceCurrency);
  if (direct !== undefined) return direct;
  for (const spec of listOf(offer.priceSpecification).filter(isObject)) {
    if (ORIGINAL_PRICE.test(textOf(spec.priceType) ?? '')) continue;
    const price = priceOf(spec.price, spec.priceCurrency ?? offer.priceCurrency);
    if (price !== undefined) return price;
  }
  return undefined;
}

/** A list or strikethrough price above the offer's price: the offer is a sale. */
function offerSale(offer: JsonObject, price: Price | undefined): ProductVariant['sale'] {
  if (price === undefined) return undefined;
  for (const spec of listOf(offer.priceSpecification).filter(isObject)) {
    if (!ORIGINAL_PRICE.test(textOf(spec.priceType) ?? '')) continue;
    const original = priceOf(spec.price, spec.priceCurrency ?? offer.priceCurrency);
    if (original !== undefined && original.amount > price.amount) return { originalPrice: original };
  }
  return undefined;
}

interface VariantBase {
  title?: string | undefined;
  sku?: string | undefined;
  values?: Record<string, unknown> | undefined;
  images: Array<{ url: string; alt?: string }>;
}

const defined = <T extends object>(object: T): T =>
  Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;

/**
 * A variant per offer of `product`: its price, sale, availability and SKU. An AggregateOffer
 * without its offers listed is one variant at its lowest price, with the range in `values`. An
 * offer that states no availability counts as in stock (an offer is something one can buy now);
 * `availability.text` is there only when the page states one.
 */
function offerVariants(product: JsonObject, base: VariantBase, pageUrl: string): ProductVariant[] {
  const variants: ProductVariant[] = [];
  const visit = (offer: JsonObject) => {
    if (variants.length >= MAX_VARIANTS) return;
    const inner = listOf(offer.offers).filter(isObject);
    if (hasType(offer, ['AggregateOffer']) && inner.length > 0) {
      inner.forEach(visit);
      return;
    }
    const aggregate = hasType(offer, ['AggregateOffer']);
    const price = aggregate ? priceOf(offer.lowPrice ?? offer.price, offer.priceCurrency) : offerPrice(offer);
    const high = aggregate ? numberOf(offer.highPrice) : undefined;
    const range =
      aggregate && price !== undefined && high !== undefined
        ? { lowPrice: price.amount, highPrice: high }
        : {};
    const values = { ...base.values, ...range };
    const offerUrl = urlOf(offer.url, pageUrl);
    variants.push(
      defined({
        id: textOf(offer['@id']) ?? offerUrl,
        sku: textOf(offer.sku) ?? base.sku,
        title: textOf(offer.name) ?? base.title,
        values: Object.keys(values).length > 0 ? values : undefined,
        price,
        sale: offerSale(offer, price),
        availability: availabilityOf(offer.availability) ?? { inStock: true },
        images: base.images.length > 0 ? base.images : undefined,
      }),
    );
  };
  listOf(product.offers).filter(isObject).forEach(visit);
  return variants;
}

function variantValues(variant: JsonObject, variesBy: unknown): Record<string, unknown> | undefined {
  const named = listOf(variesBy)
    .map((name) => (typeof name === 'string' ? name.replace(/^.*[/#]/, '') : undefined))
    .filter((name): name is string => name !== undefined);
  const values: Record<string, unknown> = {};
  for (const name of new Set([...named, ...VARIANT_PROPERTIES])) {
    const value = textOf(variant[name]);
    if (value !== undefined) values[name] = value;
  }
  for (const property of listOf(variant.additionalProperty).filter(isObject)) {
    const name = textOf(property.name);
    const value = textOf(property.value);
    if (name !== undefined && value !== undefined) values[name] = value;
  }
  return Object.keys(values).length > 0 ? values : undefined;
}

/**
 * The product format from what the page publishes as schema.org data (JSON-LD or microdata): the
 * first ProductGroup (its `hasVariant` products become the variants) or else the first named
 * Product (its offers become the variants). Undefined when the page publishes no product.
 * Nothing is filled in that the data does not say, but for availability (offerVariants).
 */
export function productFromStructuredData(
  structured: readonly JsonObject[],
  pageUrl: string,
): ProductProfile | undefined {
  const objects = walkObjects(structured);
  const named = (object: JsonObject) => textOf(object.name) !== undefined;
  const group = objects.find((object) => hasType(object, ['ProductGroup']) && named(object));
  const product = group ?? objects.find((object) => hasType(object, PRODUCT_TYPES) && named(object));
  if (product === undefined) return undefined;

  const images = imagesOf(product.image, pageUrl);
  const members = group === undefined ? [] : listOf(group.hasVariant).filter(isObject);
  const variants =
    members.length > 0
      ? members.flatMap((member) => {
          const base: VariantBase = {
            title: textOf(member.name),
            sku: textOf(member.sku),
            values: variantValues(member, group?.variesBy),
            images: imagesOf(member.image, pageUrl).length > 0 ? imagesOf(member.image, pageUrl) : images,
          };
          // A member without an offer has no price or availability to report: it is left out.
          return offerVariants(member, base, pageUrl);
        })
      : offerVariants(
          product,
          { sku: textOf(product.sku), values: variantValues(product, undefined), images },
          pageUrl,
        );

  return defined({
    title: textOf(product.name) as string,
    brand: textOf(product.brand) ?? textOf(product.manufacturer),
    category: textOf(product.category),
    url: urlOf(product.url, pageUrl) ?? pageUrl,
    description: textOf(product.description),
    variants: variants.slice(0, MAX_VARIANTS),
  });
}
