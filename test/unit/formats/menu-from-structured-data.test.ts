import { describe, expect, it } from 'vitest';
import { MenuProfile } from '../../../shared/api/responses/page-profiles';
import { parseHtml } from '../../../shared/html/parse-html';
import { menuFromStructuredData } from '../../../server/scrape/derive/formats/menu-from-structured-data';
import { extractJsonLd, extractMicrodata } from '../../../server/scrape/derive/formats/structured-data';

const PAGE_URL = 'https://bistro.test/menu';

function menu(html: string, siteName?: string) {
  const document = parseHtml(html);
  return menuFromStructuredData(
    [...extractJsonLd(document), ...extractMicrodata(document)],
    PAGE_URL,
    siteName,
  );
}

const RESTAURANT = {
  '@context': 'https://schema.org',
  '@type': 'Restaurant',
  name: 'The Hive Bistro',
  address: { '@type': 'PostalAddress', addressLocality: 'Lyon' },
  hasMenu: {
    '@type': 'Menu',
    name: 'Dinner',
    hasMenuSection: [
      {
        '@type': 'MenuSection',
        name: 'Starters',
        hasMenuItem: [
          {
            '@type': 'MenuItem',
            name: 'Honey toast',
            description: 'Sourdough, ricotta, honey.',
            offers: { '@type': 'Offer', price: '6.50', priceCurrency: 'EUR' },
            suitableForDiet: ['https://schema.org/VegetarianDiet', 'https://schema.org/GlutenFreeDiet'],
            nutrition: { '@type': 'NutritionInformation', calories: '320 calories' },
          },
        ],
        hasMenuSection: {
          '@type': 'MenuSection',
          name: 'Soups',
          hasMenuItem: {
            '@type': 'MenuItem',
            name: 'Pollen broth',
            offers: { '@type': 'Offer', price: 7, availability: 'https://schema.org/SoldOut' },
          },
        },
      },
    ],
  },
};

describe('menuFromStructuredData', () => {
  it('reads a Restaurant menu: sections (nested ones flattened), items, prices, diets, calories', () => {
    const read = menu(
      `<html><head><script type="application/ld+json">${JSON.stringify(RESTAURANT)}</script></head></html>`,
    );
    expect(read).toEqual({
      isMenu: true,
      confidence: 1,
      merchant: {
        name: 'The Hive Bistro',
        type: 'Restaurant',
        location: { '@type': 'PostalAddress', addressLocality: 'Lyon' },
      },
      currency: 'EUR',
      sections: [
        {
          id: 'section-1',
          name: 'Starters',
          items: [
            {
              id: 'section-1-item-1',
              name: 'Honey toast',
              description: 'Sourdough, ricotta, honey.',
              images: [],
              price: { amount: 6.5, currency: 'EUR' },
              availability: { inStock: true },
              dietary: ['vegetarian', 'gluten-free'],
              calories: 320,
              optionGroups: [],
              identifiers: {},
              sourceUrl: PAGE_URL,
            },
          ],
        },
        {
          id: 'section-2',
          name: 'Starters › Soups',
          items: [
            {
              id: 'section-2-item-1',
              name: 'Pollen broth',
              images: [],
              price: { amount: 7 },
              availability: { inStock: false, text: 'SoldOut' },
              dietary: [],
              optionGroups: [],
              identifiers: {},
              sourceUrl: PAGE_URL,
            },
          ],
        },
      ],
      sourceUrl: PAGE_URL,
    });
    expect(MenuProfile.safeParse(read).success).toBe(true);
  });

  it('reads microdata menu items without a Menu, naming the merchant after the site', () => {
    const read = menu(
      `<html><body><div itemscope itemtype="https://schema.org/MenuItem"><span itemprop="name">Mead</span>
        <div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price">5</span></div></div></body></html>`,
      'Hive Bar',
    );
    expect(read?.merchant).toEqual({ name: 'Hive Bar', type: null });
    expect(read?.sections).toEqual([
      expect.objectContaining({
        name: 'Menu',
        items: [expect.objectContaining({ name: 'Mead', price: { amount: 5 } })],
      }),
    ]);
  });

  it('finds nothing on a page without menu items', () => {
    expect(menu('<html><body><h2>Menu</h2><p>Honey toast 6.50</p></body></html>')).toBeUndefined();
    expect(
      menu(
        `<html><head><script type="application/ld+json">{"@type":"Restaurant","name":"Closed"}</script></head></html>`,
      ),
    ).toBeUndefined();
  });
});
