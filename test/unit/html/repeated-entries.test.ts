import { describe, expect, it } from 'vitest';
import { contentRoot } from '../../../shared/html/narrow-to-content';
import { parseHtml } from '../../../shared/html/parse-html';
import { repeatedEntries } from '../../../shared/html/repeated-entries';
import { textWeights } from '../../../shared/html/text-weights';

const sentence = (seed: string) => `${seed} `.repeat(20).trim();

describe('repeatedEntries', () => {
  it('finds the largest run of alike siblings, numbered class names counting as one', () => {
    const posts = [1, 2, 3, 4]
      .map((n) => `<div class="post post-${n}"><p>${sentence(`word${n}`)}</p></div>`)
      .join('');
    const document = parseHtml(
      `<body><div class="thread">${posts}</div><div class="intro"><p>${sentence('intro')}</p></div></body>`,
    );
    const { entries, prose } = repeatedEntries(document.body, textWeights(document.body));
    expect(entries.map((entry) => entry.className)).toEqual([
      'post post-1',
      'post post-2',
      'post post-3',
      'post post-4',
    ]);
    expect(prose).toBeGreaterThan(4 * 100);
  });

  it('ignores runs of links and runs shorter than three', () => {
    const links = [1, 2, 3, 4].map((n) => `<li><a href="/${n}">${sentence(`link${n}`)}</a></li>`).join('');
    const pair = [1, 2].map((n) => `<div class="col"><p>${sentence(`col${n}`)}</p></div>`).join('');
    const document = parseHtml(`<body><ul>${links}</ul>${pair}</body>`);
    expect(repeatedEntries(document.body, textWeights(document.body)).prose).toBe(0);
  });
});

describe('contentRoot', () => {
  it('walks down through wrappers into the block that holds nearly all the prose', () => {
    const document = parseHtml(
      `<body><div class="top"><a href="/">Home</a> <a href="/a">About</a></div>` +
        `<div class="page"><div class="content"><p>${sentence('alpha')}</p><p>${sentence('beta')}</p></div>` +
        `<div class="rail"><a href="/x">${sentence('rail')}</a></div></div></body>`,
    );
    expect(contentRoot(document.body).className).toBe('content');
  });

  it('stops above siblings that share the prose (posts, items, product sections)', () => {
    const document = parseHtml(
      `<body><div class="page"><div class="description"><p>${sentence('alpha')}</p></div>` +
        `<div class="reviews"><p>${sentence('beta')}</p></div></div></body>`,
    );
    expect(contentRoot(document.body).className).toBe('page');
  });

  it('stops at main and article, keeping the content’s own structure', () => {
    const document = parseHtml(`<body><main><div class="x"><p>${sentence('alpha')}</p></div></main></body>`);
    expect(contentRoot(document.body).localName).toBe('main');
  });
});

describe('contentRoot on a listing of linked cards', () => {
  it('does not take the intro above cards whose text is all links', () => {
    const cards = [1, 2, 3, 4, 5]
      .map(
        (n) =>
          `<a class="card" href="/${n}"><h3>${sentence(`title${n}`)}</h3><p>${sentence(`summary${n}`)}</p></a>`,
      )
      .join('');
    const document = parseHtml(
      `<body><div class="page"><div class="intro"><p>${sentence('intro')}</p></div><div class="cards">${cards}</div></div></body>`,
    );
    expect(contentRoot(document.body).className).toBe('page');
  });
});
