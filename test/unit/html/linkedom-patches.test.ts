import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../../shared/html/parse-html';

// patches/linkedom+0.18.14.patch makes linkedom cheaper per node and per query; the DOM must behave as before.
describe('linkedom as patched', () => {
  describe('event listeners, whose storage a node gets on first use', () => {
    it('reach listeners on the target and, for bubbling events, on its ancestors', () => {
      const document = parseHtml('<div><p><b>x</b></p></div>');
      const heard: string[] = [];
      document.querySelector('p')?.addEventListener('ping', (event) => heard.push(`p:${event.eventPhase}`));
      document.querySelector('div')?.addEventListener('ping', () => heard.push('div'));
      const target = document.querySelector('b') as Element;
      const Event = document.defaultView?.Event as typeof globalThis.Event;
      target.dispatchEvent(new Event('ping', { bubbles: true }));
      target.dispatchEvent(new Event('ping'));
      expect(heard).toEqual(['p:3', 'div']);
    });

    it('can be removed, also from a node that never had one', () => {
      const document = parseHtml('<p>x</p>');
      const paragraph = document.querySelector('p') as Element;
      const heard: string[] = [];
      const listener = () => heard.push('heard');
      expect(() => document.body.removeEventListener('click', listener)).not.toThrow();
      paragraph.addEventListener('click', listener);
      paragraph.removeEventListener('click', listener);
      (paragraph as HTMLElement).click();
      expect(heard).toEqual([]);
    });

    it('include the on… attributes a page sets', () => {
      const document = parseHtml('<button>go</button>');
      const button = document.querySelector('button') as HTMLElement;
      let clicks = 0;
      button.onclick = () => (clicks += 1);
      button.click();
      expect(clicks).toBe(1);
    });
  });

  describe('style declarations, which know their element without a WeakMap', () => {
    it('read the style attribute as it is now, and write it back', () => {
      const document = parseHtml('<p style="display: none; color:red">x</p><p>y</p>');
      const [hidden, plain] = Array.from(document.querySelectorAll('p')) as HTMLElement[];
      expect([hidden?.style.display, hidden?.style.color, plain?.style.display]).toEqual(['none', 'red', '']);
      hidden?.setAttribute('style', 'visibility: hidden');
      expect([hidden?.style.display, hidden?.style.visibility]).toEqual(['', 'hidden']);
      if (plain !== undefined) plain.style.display = 'block';
      expect(plain?.getAttribute('style')).toBe('display:block');
      if (plain !== undefined) plain.style.cssText = 'color: blue';
      expect([plain?.style.color, plain?.style.length]).toEqual(['blue', 1]);
    });
  });

  describe('selectors, compiled once and kept', () => {
    it('match the tree as it is now, not as it was when they were first used', () => {
      const document = parseHtml('<main><p class="a">1</p></main>');
      expect(document.querySelectorAll('main .a')).toHaveLength(1);
      document.querySelector('p')?.setAttribute('class', 'b');
      document.body.insertAdjacentHTML('beforeend', '<main><p class="a">2</p><p class="a">3</p></main>');
      expect(Array.from(document.querySelectorAll('main .a'), (p) => p.textContent)).toEqual(['2', '3']);
      expect(document.querySelector('p')?.closest('main .a, main')?.localName).toBe('main');
    });

    it('answer selectors with expensive parts afresh after the tree changes', () => {
      const document = parseHtml('<div class="on"><p id="a">a</p></div>');
      const ids = () => Array.from(document.querySelectorAll('.on p:not(main p)'), (p) => p.id);
      expect(ids()).toEqual(['a']);
      document.querySelector('div')?.setAttribute('class', 'off');
      expect(ids()).toEqual([]);
    });

    it('answer :has() afresh after the tree changes', () => {
      const document = parseHtml('<div><p>x</p></div><div></div>');
      expect(document.querySelectorAll('div:has(p)')).toHaveLength(1);
      document.querySelector('p')?.remove();
      expect(document.querySelectorAll('div:has(p)')).toHaveLength(0);
    });

    it('are told apart in HTML (case-insensitive names) and XML documents', () => {
      const html = parseHtml('<DIV>x</DIV>');
      expect(html.querySelectorAll('div')).toHaveLength(1);
      const Parser = html.defaultView?.DOMParser as typeof globalThis.DOMParser;
      const xml = new Parser().parseFromString('<root><Item/><item/></root>', 'text/xml');
      expect(xml.querySelectorAll('Item')).toHaveLength(1);
    });

    it('still reject what is not a selector, every time', () => {
      const document = parseHtml('<p>x</p>');
      expect(() => document.querySelectorAll('a[href')).toThrow();
      expect(() => document.querySelectorAll('a[href')).toThrow();
    });
  });

  describe('lists of plain tag names, matched by name', () => {
    it('select what the list selects, in document order, in any case, leaving templates out', () => {
      const document = parseHtml(
        '<div><P>1</P><pre>2</pre><template><p>x</p></template><section><p>3</p><h2-x>4</h2-x></section></div>',
      );
      const texts = (selectors: string) =>
        Array.from(document.body.querySelectorAll(selectors), (element) => element.textContent);
      expect(texts('p, pre')).toEqual(['1', '2', '3']);
      expect(texts(' PRE ,P ')).toEqual(['1', '2', '3']);
      expect(texts('h2-x')).toEqual(['4']);
      expect(document.querySelector('section')?.matches('div, section')).toBe(true);
      expect(document.querySelector('section p')?.closest('section, pre')?.localName).toBe('section');
      // Anything more than names still goes through css-select.
      expect(texts('section > p, pre')).toEqual(['2', '3']);
    });
  });
});
