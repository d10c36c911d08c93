import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { minimalPdf } from './minimal-pdf';

/**
 * The site the newer-formats tests scrape: a product page with JSON-LD (and an attribute set by a
 * script), a restaurant menu in microdata, a page of media, a page stating no product, menu or
 * media, a page of 100 000 elements, a four-page PDF and a PNG.
 */
/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const PRODUCT_PAGE = `<!doctype html><html lang="en"><head><title>Copper Smoker — Hive Supply</title>
<script type="application/ld+json">${JSON.stringify({
  '@context': 'https://schema.org',
  '@type': 'Product',
  name: 'Copper Smoker',
  brand: { '@type': 'Brand', name: 'HiveCo' },
  image: '/img/smoker.jpg',
  description: 'A copper smoker with a heat shield.',
  offers: [
    {
      '@type': 'Offer',
      sku: 'SMK-S',
      name: 'Small',
      price: '29.90',
      priceCurrency: 'EUR',
      availability: 'https://schema.org/InStock',
    },
    {
      '@type': 'Offer',
      sku: 'SMK-L',
      name: 'Large',
      price: '39.90',
      priceCurrency: 'EUR',
      availability: 'https://schema.org/OutOfStock',
    },
  ],
})}</script></head><body><main>
<h1>Copper Smoker</h1>
<p>Our copper smoker calms the bees before you open the hive.</p>
<h2>Shipping</h2>
<p>Orders placed before noon ship the same day from our workshop in Lyon.</p>
<h2>Care</h2>
<p>Empty the ash after each use and store the smoker somewhere dry.</p>
<ul class="gallery"><li><img src="/img/smoker.jpg" alt="Front"></li><li><img src="/img/side.jpg" alt="Side"></li></ul>
<a class="buy" href="/cart?add=SMK-S">Buy small</a> <a class="buy" href="/cart?add=SMK-L">Buy large</a>
<div id="late"></div>
<script>document.getElementById('late').setAttribute('data-stock', 'added-by-script');</script>
</main></body></html>`;

const MENU_PAGE = `<!doctype html><html lang="en"><head><title>The Hive Bistro</title></head><body>
<div itemscope itemtype="https://schema.org/Restaurant"><h1 itemprop="name">The Hive Bistro</h1>
<section itemprop="hasMenu" itemscope itemtype="https://schema.org/Menu">
 <div itemprop="hasMenuSection" itemscope itemtype="https://schema.org/MenuSection"><h2 itemprop="name">Starters</h2>
  <div itemprop="hasMenuItem" itemscope itemtype="https://schema.org/MenuItem">
   <h3 itemprop="name">Honey toast</h3><p itemprop="description">Sourdough, ricotta and honey.</p>
   <link itemprop="suitableForDiet" href="https://schema.org/VegetarianDiet">
   <div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price">6.50</span><meta itemprop="priceCurrency" content="EUR"></div>
  </div>
 </div>
 <div itemprop="hasMenuSection" itemscope itemtype="https://schema.org/MenuSection"><h2 itemprop="name">Drinks</h2>
  <div itemprop="hasMenuItem" itemscope itemtype="https://schema.org/MenuItem"><h3 itemprop="name">Mead</h3>
   <div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price">5</span><meta itemprop="priceCurrency" content="EUR"></div>
  </div>
 </div>
</section></div></body></html>`;

const MEDIA_PAGE = `<!doctype html><html><head><title>Episode 7</title>
<meta property="og:video" content="https://player.example/embed/7"><meta property="og:video:type" content="text/html">
</head><body><h1>Episode 7: Swarms</h1>
<video controls poster="/poster.jpg"><source src="/media/swarm.webm" type="video/webm"><source src="/media/swarm.mp4" type="video/mp4"></video>
<audio controls src="/media/episode-7.mp3"></audio>
<p>In this episode we follow a swarm across the valley.</p></body></html>`;

const PLAIN_PAGE = `<!doctype html><html><head><title>About us</title></head><body><h1>About us</h1>
<p>We are three beekeepers who started selling tools in 2019.</p>
<p>The Deluxe Hive Tool costs 18 EUR and is forged from one piece of steel.</p></body></html>`;

/** A page of 100 000 elements: 50 000 list items with a link each. */
const BIG_PAGE = `<!doctype html><html><body><ul>${Array.from(
  { length: 50_000 },
  (_, i) => `<li class="c${i % 5}"><a href="/p/${i}">${i}</a></li>`,
).join('')}</ul></body></html>`;

export async function startNewerFormatsSite() {
  const pdf = minimalPdf(
    ['Page one text', 'Page two text', 'Page three text', 'Page four text'],
    'Four pages',
  );
  const pages: Record<string, string> = {
    '/product': PRODUCT_PAGE,
    '/menu': MENU_PAGE,
    '/media': MEDIA_PAGE,
    '/about': PLAIN_PAGE,
    '/big': BIG_PAGE,
  };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    const page = pages[path];
    if (page !== undefined) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    } else if (path === '/doc.pdf') {
      response.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
    } else if (path === '/photo.png') {
      response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
