import { describe, expect, it } from 'vitest';
import { rewriteIframeSelector } from '../../../shared/api/rewrite-iframe-selector';

const DIV = 'div[data-original-tag="iframe"]';

describe('rewriteIframeSelector', () => {
  it.each([
    ['iframe', DIV],
    ['iframe.video', `${DIV}.video`],
    ['iframe#main-video', `${DIV}#main-video`],
    ['iframe[src*="youtube.com"]', `${DIV}[src*="youtube.com"]`],
    ['iframe:first-child', `${DIV}:first-child`],
    ['IFrame.video', `${DIV}.video`],
  ])('rewrites the type selector in %s', (selector, expected) => {
    expect(rewriteIframeSelector(selector)).toBe(expected);
  });

  it.each([
    ['div iframe', `div ${DIV}`],
    ['iframe > div', `${DIV} > div`],
    ['div>iframe', `div>${DIV}`],
    ['div + iframe', `div + ${DIV}`],
    ['iframe ~ p', `${DIV} ~ p`],
    ['iframe, iframe.video', `${DIV}, ${DIV}.video`],
    ['.container iframe[src*="youtube.com"]', `.container ${DIV}[src*="youtube.com"]`],
    ['section:not(iframe)', `section:not(${DIV})`],
    ['div:has(> iframe)', `div:has(> ${DIV})`],
  ])('rewrites every iframe token after combinators and commas: %s', (selector, expected) => {
    expect(rewriteIframeSelector(selector)).toBe(expected);
  });

  it.each([
    'div.iframe-container',
    'iframe-wrapper',
    'my-iframe',
    '.iframe',
    '#iframe',
    'iframe_x',
    'iframes',
    'svg|iframe',
    '[title="iframe"]',
    "a[data-kind='x iframe']",
    'a[data-kind=iframe]',
    'p.\\iframe',
    '',
  ])('leaves %j alone', (selector) => {
    expect(rewriteIframeSelector(selector)).toBe(selector);
  });

  it('rewrites around attribute selectors that contain brackets or quotes', () => {
    expect(rewriteIframeSelector('a[title="]iframe"] iframe')).toBe(`a[title="]iframe"] ${DIV}`);
  });
});
