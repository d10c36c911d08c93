import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { extractMetadata } from '../../../../shared/html/extract-metadata';
import { parseHtml } from '../../../../shared/html/parse-html';
import type { PageCapture } from '../../../../shared/protocol/messages';
import { guardSchema } from '../../../../server/platform/llm/schema-guard';
import { jsonFormat } from '../../../../server/scrape/enrich/formats/json-format';
import { pageLabels } from '../../../../server/scrape/derive/formats/page-labels';
import { extractJsonLd, extractMicrodata } from '../../../../server/scrape/derive/formats/structured-data';

const html = await readFile(new URL('../../../fixtures/site/product.html', import.meta.url), 'utf8');
const capture: PageCapture = {
  url: 'https://hive.example/smoker',
  statusCode: 200,
  contentType: 'text/html',
  rawHtml: html,
  renderedHtml: html,
};
const metadata = extractMetadata(parseHtml(html), capture.url);

const noLlm = (schema: unknown, prompt?: string) =>
  jsonFormat({
    capture,
    markdown: '',
    metadata,
    schema: schema === undefined ? undefined : guardSchema(schema),
    prompt,
    llm: undefined,
  });

describe('structured data', () => {
  it('reads JSON-LD objects with @graph flattened, and skips broken blocks', () => {
    const objects = extractJsonLd(parseHtml(`${html}<script type="application/ld+json">{broken</script>`));
    expect(objects.map((object) => object['@type'])).toEqual(['Organization', 'Product']);
  });

  it('reads microdata items with nested items and their types', () => {
    expect(extractMicrodata(parseHtml(html))).toEqual([
      {
        '@type': 'Review',
        author: 'Mira',
        reviewRating: { '@type': 'Rating', ratingValue: '5' },
        reviewBody: 'Works on the first match.',
      },
    ]);
  });

  it('collects labelled values from definition lists, tables, "Label: value" text and headings', () => {
    const labels = pageLabels(parseHtml(html));
    expect(labels.get('material')?.text).toBe('Copper and leather');
    expect(labels.get('height')?.text).toBe('26 cm');
    expect(labels.get('weight')?.text).toBe('450 g');
    expect(labels.get('features')?.items).toEqual(['Heat shield', 'Hook for the belt']);
  });
});

describe('the json format without an LLM', () => {
  it('fills a schema from JSON-LD, microdata, labels and metadata, coercing types', async () => {
    const result = await noLlm({
      type: 'object',
      properties: {
        name: { type: 'string' },
        price: { type: 'number' },
        brand: { type: 'string' },
        sku: { type: 'string' },
        material: { type: 'string' },
        inStock: { type: 'boolean' },
        warrantyYears: { type: 'integer' },
        features: { type: 'array', items: { type: 'string' } },
        siteName: { type: 'string' },
      },
    });
    expect(result).toEqual({
      value: {
        name: 'Copper Smoker',
        price: 39.9,
        brand: 'Apis Works',
        sku: 'SMK-7',
        material: 'Copper and leather',
        inStock: true,
        warrantyYears: 3,
        features: ['Heat shield', 'Hook for the belt'],
        siteName: 'Hive Supply',
      },
    });
  });

  it('fills a list of objects from the items a page publishes separately', async () => {
    const listing = `<!doctype html><title>Smokers</title><script type="application/ld+json">
      {"@type":"ItemList","itemListElement":[
        {"@type":"ListItem","position":1,"item":{"@type":"Product","name":"Copper Smoker","offers":{"price":"39.90"}}},
        {"@type":"ListItem","position":2,"item":{"@type":"Product","name":"Steel Smoker","offers":{"price":"24"}}}]}
      </script><h1>Smokers</h1>`;
    const page: PageCapture = { ...capture, rawHtml: listing, renderedHtml: listing };
    const schema = guardSchema({
      type: 'object',
      properties: {
        products: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
        },
      },
    });
    const result = await jsonFormat({
      capture: page,
      markdown: '',
      metadata: {},
      schema,
      prompt: undefined,
      llm: undefined,
    });
    expect(result.value).toEqual({
      products: [
        { name: 'Copper Smoker', price: 39.9 },
        { name: 'Steel Smoker', price: 24 },
      ],
    });
  });

  it('leaves out what the page does not say, and warns when the schema requires it', async () => {
    const result = await noLlm({
      type: 'object',
      properties: { name: { type: 'string' }, color: { type: 'string' } },
      required: ['name', 'color'],
    });
    expect(result.value).toEqual({ name: 'Copper Smoker' });
    expect(result.warning).toMatch(/could only fill part of the schema.*color/);
  });

  it('returns the published structured data with a warning for a prompt without a schema', async () => {
    const result = await noLlm(undefined, 'What does it cost?');
    expect(result.warning).toMatch(/No LLM is configured/);
    expect(result.value).toMatchObject({
      jsonLd: [{ '@type': 'Organization' }, { '@type': 'Product', sku: 'SMK-7' }],
      microdata: [{ '@type': 'Review' }],
      openGraph: { 'og:title': 'Copper Smoker' },
    });
  });
});
