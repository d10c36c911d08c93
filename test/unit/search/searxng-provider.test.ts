import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createEgress } from '../../../server/platform/egress/create-egress';
import { parseQuery } from '../../../server/platform/text/parse-query';
import type { SearchQuery, SearchSource } from '../../../server/products/search/search-provider';
import { createSearxngProvider } from '../../../server/products/search/searxng-provider';
import { startFakeSearxng } from '../../helpers/fake-searxng';

const egress = createEgress({ allowPrivateNetworks: true });
afterAll(() => egress.close());

const query = (text: string, sources: SearchSource[], extra: Partial<SearchQuery> = {}): SearchQuery => ({
  text,
  parsed: parseQuery(text),
  sources,
  limit: 10,
  teamId: 'team',
  lang: 'en',
  country: 'us',
  signal: new AbortController().signal,
  ...extra,
});

const webResult = (n: number) => ({
  url: `https://site${n}.example/page`,
  title: `Page ${n}`,
  content: `About page ${n}`,
});

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('the SearXNG provider', () => {
  it('reads web, news and image results from the JSON API, one category each', async () => {
    const searxng = await startFakeSearxng({
      results: () => ({
        general: [webResult(1), webResult(2)],
        news: [
          {
            url: 'https://news.example/bees',
            title: 'Bees in the news',
            content: 'Colonies recover',
            publishedDate: '2026-11-20T08:00:00',
            thumbnail_src: 'https://news.example/t.jpg',
            img_src: 'https://news.example/bees.jpg',
          },
        ],
        images: [
          {
            url: 'https://img.example/page',
            title: 'A bee',
            img_src: 'https://img.example/bee.jpg',
            resolution: '1920 x 1080',
          },
          { url: 'https://img.example/nothing', title: 'No image source' },
        ],
      }),
    });
    close = searxng.close;
    const provider = createSearxngProvider({ baseUrl: `${searxng.url}/`, egress });
    const found = await provider.search(
      query('bees site:example.com', ['web', 'news', 'images'], { tbs: 'qdr:w' }),
    );
    expect(found.web).toEqual([
      { url: 'https://site1.example/page', title: 'Page 1', description: 'About page 1' },
      { url: 'https://site2.example/page', title: 'Page 2', description: 'About page 2' },
    ]);
    expect(found.news).toEqual([
      {
        title: 'Bees in the news',
        url: 'https://news.example/bees',
        snippet: 'Colonies recover',
        date: '2026-11-20T08:00:00',
        imageUrl: 'https://news.example/bees.jpg',
      },
    ]);
    expect(found.images).toEqual([
      {
        title: 'A bee',
        imageUrl: 'https://img.example/bee.jpg',
        imageWidth: 1920,
        imageHeight: 1080,
        url: 'https://img.example/page',
      },
    ]);
    const sent = searxng.queries.find((q) => q.get('categories') === 'general');
    expect(Object.fromEntries(sent ?? [])).toMatchObject({
      q: 'bees site:example.com',
      format: 'json',
      language: 'en-US',
      time_range: 'week',
      pageno: '1',
    });
  });

  it('reads further pages until the limit is met', async () => {
    const searxng = await startFakeSearxng({
      perPage: 4,
      results: () => ({ general: Array.from({ length: 20 }, (_, i) => webResult(i + 1)) }),
    });
    close = searxng.close;
    const provider = createSearxngProvider({ baseUrl: searxng.url, egress });
    const found = await provider.search(query('many', ['web'], { limit: 10 }));
    expect(found.web?.map((r) => r.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Page ${i + 1}`));
    expect(searxng.queries.map((q) => q.get('pageno'))).toEqual(['1', '2', '3']);
  });

  it('explains an instance that does not answer JSON', async () => {
    const searxng = await startFakeSearxng({
      results: () => ({}),
      answer: (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<html>SearXNG</html>');
      },
    });
    close = searxng.close;
    const provider = createSearxngProvider({ baseUrl: searxng.url, egress });
    await expect(provider.search(query('x', ['web']))).rejects.toThrow(/search\.formats/);
  });

  it('reports an HTTP error of the instance', async () => {
    const searxng = await startFakeSearxng({
      results: () => ({}),
      answer: (_request, response) => {
        response.writeHead(429);
        response.end('Too Many Requests');
      },
    });
    close = searxng.close;
    const provider = createSearxngProvider({ baseUrl: searxng.url, egress });
    await expect(provider.search(query('x', ['web']))).rejects.toThrow('SearXNG answered HTTP 429');
  });
});
