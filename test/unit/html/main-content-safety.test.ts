import { describe, expect, it } from 'vitest';
import { cleanDocument } from '../../../shared/html/clean-html';
import { parseHtml } from '../../../shared/html/parse-html';

const PARAGRAPH =
  'Every spring and every autumn the lower town wakes up to water in its cellars. Hydrologists say the pattern follows the snowmelt in the hills and the heavy rains of the first autumn storms, and that both have grown stronger over the last twenty years.';

describe('main-content safety rails (issue 35)', () => {
  it('puts the page back when extraction left less than its largest paragraph', () => {
    // The blocklist takes `.modal` for a pop-up; here it holds the page's only paragraph.
    const document = parseHtml(
      `<body><div class="modal"><p>${PARAGRAPH}</p></div><main><p>Read more</p></main></body>`,
    );
    cleanDocument(document, { onlyMainContent: true, mainContent: 'blocklist' });
    expect(document.body.textContent).toContain(PARAGRAPH);
    expect(document.body.textContent).toContain('Read more');
  });

  it('lets extraction drop what is not content when the largest paragraph stays', () => {
    const document = parseHtml(
      `<body><div class="modal"><p>Subscribe to our newsletter</p></div><main><p>${PARAGRAPH}</p></main></body>`,
    );
    cleanDocument(document, { onlyMainContent: true, mainContent: 'blocklist' });
    expect(document.body.textContent).toBe(PARAGRAPH);
  });

  it('gives a typed page its profile and keeps every entry of a listing', () => {
    const entries = [
      'Plans of the Old Stone Bridge',
      'Opening of the iron bridge',
      'Letter on the bridge toll',
    ]
      .map((title) => `<div class="result"><h2><a href="/i">${title}</a></h2><p>${PARAGRAPH}</p></div>`)
      .join('');
    const document = parseHtml(`<body><nav><a href="/">Home</a></nav><main>${entries}</main></body>`);
    cleanDocument(document, { onlyMainContent: true, pageType: 'listing' });
    expect(document.querySelectorAll('.result')).toHaveLength(3);
    expect(document.querySelector('nav')).toBeNull();
  });
});
