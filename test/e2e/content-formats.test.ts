import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRAND, startContentSite } from '../helpers/content-site';
import { startTestTabhive } from '../helpers/start-test-tabhive';

let site: Awaited<ReturnType<typeof startContentSite>>;
let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

beforeAll(async () => {
  site = await startContentSite();
  tabhive = await startTestTabhive();
});
afterAll(async () => {
  await tabhive?.stop();
  await site?.close();
});

describe('PDF documents', () => {
  it('parses a PDF to Markdown, with numPages, billed one credit per page', async () => {
    const { status, json } = await tabhive.post('/v2/scrape', { url: site.url('/report.pdf') });
    expect(status).toBe(200);
    expect(json.data.markdown).toContain('PDF Test File');
    expect(json.data.markdown).toContain('The third page.');
    expect(json.data.metadata).toMatchObject({ numPages: 3, creditsUsed: 3, contentType: 'application/pdf' });
  });

  it('re-routes a response whose content type is PDF, whatever its address', async () => {
    const { json } = await tabhive.post('/v2/scrape', {
      url: site.url('/download'),
      formats: ['markdown', 'html'],
    });
    expect(json.data.markdown).toContain('PDF Test File');
    expect(json.data.html).toContain('<p>PDF Test File</p>');
    expect(json.data.metadata.numPages).toBe(3);
  });

  it('returns the PDF itself, base64 in markdown, for a flat credit when parsers is empty', async () => {
    const { json } = await tabhive.post('/v2/scrape', { url: site.url('/report.pdf'), parsers: [] });
    expect(json.data.markdown).toMatch(/^JVBER/);
    expect(Buffer.from(json.data.markdown, 'base64').toString('latin1')).toContain('(PDF Test File) Tj');
    expect(json.data.metadata.numPages).toBeUndefined();
    expect(json.data.metadata.creditsUsed).toBe(1);
  });
});

describe('images and branding', () => {
  it('lists the page’s images, absolute and once each', async () => {
    const { json } = await tabhive.post('/v2/scrape', {
      url: site.url('/branding.html'),
      formats: ['images'],
    });
    expect(json.data.images).toEqual([site.url('/og.png'), site.url('/logo.svg')]);
    expect(json.data.warning).toBeUndefined();
  });

  it('measures the palette, fonts and buttons in the live page', async () => {
    const { json } = await tabhive.post('/v2/scrape', {
      url: site.url('/branding.html'),
      formats: ['branding'],
    });
    const branding = json.data.branding;
    expect(branding).toMatchObject({
      colorScheme: 'light',
      brandName: 'Ember Roasters',
      logo: site.url('/logo.svg'),
      colors: {
        primary: BRAND.primary,
        background: BRAND.background,
        textPrimary: BRAND.text,
        link: BRAND.link,
      },
      typography: {
        fontFamilies: { primary: BRAND.bodyFont, heading: BRAND.headingFont },
        fontSizes: { h1: '40px', body: '16px' },
        fontWeights: { bold: 700 },
      },
      spacing: { baseUnit: 8, borderRadius: BRAND.radius },
      components: {
        buttonPrimary: { background: BRAND.primary, textColor: '#FFFFFF', borderRadius: BRAND.radius },
        buttonSecondary: { textColor: BRAND.primary, borderColor: BRAND.primary },
      },
      images: { favicon: site.url('/favicon.svg'), ogImage: site.url('/og.png') },
    });
    expect(branding.fonts).toEqual(
      expect.arrayContaining([
        { family: BRAND.bodyFont, role: 'body' },
        { family: BRAND.headingFont, role: 'heading' },
      ]),
    );
  });
});

describe('onlyMainContent on real pages', () => {
  it('keeps the article and leaves out related links and chrome', async () => {
    const { json } = await tabhive.post('/v2/scrape', { url: site.url('/pages/news-article') });
    expect(json.data.markdown).toContain('The council voted');
    expect(json.data.markdown).not.toContain('Most read');
  });

  it('keeps every entry of a listing', async () => {
    const { json } = await tabhive.post('/v2/scrape', { url: site.url('/pages/product-listing') });
    const entries = (json.data.markdown as string).match(/^\s*[-*] |\| /gm) ?? [];
    expect(entries.length).toBeGreaterThan(2);
  });
});

describe('a multi-megabyte page', () => {
  it('is converted off the event loop: /health answers while the scrape works', async () => {
    expect(site.largeBytes).toBeGreaterThan(4_000_000);
    let scrapeDone = false;
    const scrape = tabhive
      .post('/v2/scrape', { url: site.url('/large.html'), onlyMainContent: false })
      .finally(() => {
        scrapeDone = true;
      });
    const healthAnswers: boolean[] = [];
    while (!scrapeDone) {
      const response = await fetch(`${tabhive.url}/health`);
      expect(response.status).toBe(200);
      healthAnswers.push(scrapeDone);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const { status, json } = await scrape;
    expect(status).toBe(200);
    expect(json.data.markdown).toContain('Product 2199');
    // Answers that came back while the scrape was still running.
    expect(healthAnswers.filter((afterScrape) => !afterScrape).length).toBeGreaterThan(0);
  });
});
