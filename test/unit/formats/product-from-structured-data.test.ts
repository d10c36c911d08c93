import { describe, expect, it } from 'vitest';
import { ProductProfile } from '../../../shared/api/responses/page-profiles';
import { parseHtml } from '../../../shared/html/parse-html';
import { productFromStructuredData } from '../../../server/scrape/derive/formats/product-from-structured-data';
import { extractJsonLd, extractMicrodata } from '../../../server/scrape/derive/formats/structured-data';

const PAGE_URL = 'https://shop.test/smoker';

function product(html: string) {
  const document = parseHtml(html);
  return productFromStructuredData([...extractJsonLd(document), ...extractMicrodata(document)], PAGE_URL);
}
const jsonLd = (data: unknown) =>
  `<html><head><script type="application/ld+json">${JSON.stringify(data)}</script></head><body></body></html>`;

describe('productFromStructuredData', () => {
  it('reads a JSON-LD Product with its offers as variants', () => {
    const read = product(
      jsonLd({
        '@context': 'https://schema.org',
        '@type': 'Product',
        name: 'Copper Smoker',
        brand: { '@type': 'Brand', name: 'HiveCo' },
        category: 'Beekeeping > Tools',
        description: 'Calms the bees.',
        image: ['/img/smoker.jpg', { '@type': 'ImageObject', url: '/img/side.jpg', caption: 'Side view' }],
        sku: 'SMK',
        offers: [
          {
            '@type': 'Offer',
            sku: 'SMK-S',
            name: 'Small',
            price: '29.90',
            priceCurrency: 'EUR',
            availability: 'https://schema.org/InStock',
            priceSpecification: {
              '@type': 'UnitPriceSpecification',
              priceType: 'https://schema.org/ListPrice',
              price: 35,
              priceCurrency: 'EUR',
            },
          },
          {
            '@type': 'Offer',
            sku: 'SMK-L',
            name: 'Large',
            price: 39.9,
            priceCurrency: 'EUR',
            availability: 'https://schema.org/OutOfStock',
          },
        ],
      }),
    );
    expect(read).toEqual({
      title: 'Copper Smoker',
      brand: 'HiveCo',
      category: 'Beekeeping > Tools',
      url: PAGE_URL,
      description: 'Calms the bees.',
      variants: [
        {
          sku: 'SMK-S',
          title: 'Small',
          price: { amount: 29.9, currency: 'EUR' },
          sale: { originalPrice: { amount: 35, currency: 'EUR' } },
          availability: { inStock: true, text: 'InStock' },
          images: [
            { url: 'https://shop.test/img/smoker.jpg' },
            { url: 'https://shop.test/img/side.jpg', alt: 'Side view' },
          ],
        },
        {
          sku: 'SMK-L',
          title: 'Large',
          price: { amount: 39.9, currency: 'EUR' },
          availability: { inStock: false, text: 'OutOfStock' },
          images: [
            { url: 'https://shop.test/img/smoker.jpg' },
            { url: 'https://shop.test/img/side.jpg', alt: 'Side view' },
          ],
        },
      ],
    });
    expect(ProductProfile.safeParse(read).success).toBe(true);
  });

  it('reads a ProductGroup: each variant with its own values and offer', () => {
    const read = product(
      jsonLd({
        '@context': 'https://schema.org/',
        '@graph': [
          {
            '@type': 'ProductGroup',
            name: 'Bee suit',
            variesBy: ['https://schema.org/size'],
            hasVariant: [
              {
                '@type': 'Product',
                name: 'Bee suit M',
                sku: 'S-M',
                size: 'M',
                offers: { '@type': 'Offer', price: '80', priceCurrency: 'USD' },
              },
              {
                '@type': 'Product',
                name: 'Bee suit L',
                sku: 'S-L',
                size: 'L',
                offers: { '@type': 'Offer', price: '85', priceCurrency: 'USD', availability: 'PreOrder' },
              },
            ],
          },
        ],
      }),
    );
    expect(read?.title).toBe('Bee suit');
    expect(read?.variants).toEqual([
      {
        sku: 'S-M',
        title: 'Bee suit M',
        values: { size: 'M' },
        price: { amount: 80, currency: 'USD' },
        availability: { inStock: true },
      },
      {
        sku: 'S-L',
        title: 'Bee suit L',
        values: { size: 'L' },
        price: { amount: 85, currency: 'USD' },
        availability: { inStock: false, text: 'PreOrder' },
      },
    ]);
  });

  it('reads an AggregateOffer as one variant at its lowest price, with the range', () => {
    const read = product(
      jsonLd({
        '@type': 'Product',
        name: 'Frames',
        offers: {
          '@type': 'AggregateOffer',
          lowPrice: '2.50',
          highPrice: '4',
          priceCurrency: 'GBP',
          offerCount: 3,
        },
      }),
    );
    expect(read?.variants).toEqual([
      {
        values: { lowPrice: 2.5, highPrice: 4 },
        price: { amount: 2.5, currency: 'GBP' },
        availability: { inStock: true },
      },
    ]);
  });

  it('reads microdata, and leaves out prices it cannot read for certain', () => {
    const read = product(`<html><body><div itemscope itemtype="https://schema.org/Product">
      <h1 itemprop="name">Hive tool</h1><img itemprop="image" src="/tool.jpg">
      <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
        <span itemprop="price">12,50</span><meta itemprop="priceCurrency" content="EUR">
        <link itemprop="availability" href="https://schema.org/InStock">
      </div></div></body></html>`);
    expect(read).toEqual({
      title: 'Hive tool',
      url: PAGE_URL,
      variants: [
        { availability: { inStock: true, text: 'InStock' }, images: [{ url: 'https://shop.test/tool.jpg' }] },
      ],
    });
  });

  it('finds nothing on a page that publishes no product', () => {
    expect(product(jsonLd({ '@type': 'Article', headline: 'Bees' }))).toBeUndefined();
    expect(product('<html><body><h1>Smoker</h1><p>€39.90</p></body></html>')).toBeUndefined();
  });
});
