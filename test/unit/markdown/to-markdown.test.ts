import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../../shared/html/parse-html';
import { fencedCodeBlock, toMarkdown } from '../../../shared/markdown/to-markdown';

const md = (html: string, removeBase64Images = true) => toMarkdown(html, { removeBase64Images });

describe('toMarkdown', () => {
  it('writes ATX headings, emphasis and inline links', () => {
    expect(
      md(
        '<h1>Title</h1><h3>Sub</h3><p>Some <b>bold</b>, <i>italic</i> and <a href="https://x.test/a" title="A page">a link</a>.</p>',
      ),
    ).toBe('# Title\n\n### Sub\n\nSome **bold**, *italic* and [a link](https://x.test/a "A page").');
  });

  it('writes "-" bullets and numbered lists with nested items indented under their text', () => {
    const html =
      '<ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul><ol start="3"><li>three</li><li><p>four</p><p>more</p></li></ol>';
    expect(md(html)).toBe('- one\n- two\n  - nested\n\n3. three\n4. four\n\n   more');
  });

  it('writes GFM task list items', () => {
    expect(
      md('<ul><li><input type="checkbox" checked> done</li><li><input type="checkbox"> todo</li></ul>'),
    ).toBe('- [x] done\n- [ ] todo');
  });

  it('fences code blocks with their language and exact whitespace', () => {
    const html = '<pre><code class="language-python">def f():\n    return 1\n\n\n# end</code></pre>';
    expect(md(html)).toBe('```python\ndef f():\n    return 1\n\n\n# end\n```');
  });

  it('fences a bare <pre> and keeps line breaks written as <br> or per-line elements', () => {
    expect(md('<pre>a<br>b</pre>')).toBe('```\na\nb\n```');
    expect(md('<pre class="lang-sh"><div>npm i</div><div>npm test</div></pre>')).toBe(
      '```sh\nnpm i\nnpm test\n```',
    );
  });

  it('makes the fence longer than any fence inside the code', () => {
    expect(fencedCodeBlock('```js\nx\n```', 'md')).toBe('````md\n```js\nx\n```\n````');
  });

  it('writes strikethrough', () => {
    expect(md('<p><del>old</del> new</p>')).toBe('~old~ new');
  });

  it('replaces base64 images with a placeholder when asked to', () => {
    const html =
      '<p><img src="data:image/png;base64,iVBORw0KGgo=" alt="A dot"> <img src="https://x.test/a.png" alt="Real"></p>';
    expect(md(html)).toBe('![A dot](<Base64-Image-Removed>) ![Real](https://x.test/a.png)');
    expect(md(html, false)).toBe(
      '![A dot](data:image/png;base64,iVBORw0KGgo=) ![Real](https://x.test/a.png)',
    );
  });

  it('keeps data: images that are not base64', () => {
    expect(md('<img src="data:image/svg+xml,%3Csvg%3E" alt="svg">')).toBe(
      '![svg](data:image/svg+xml,%3Csvg%3E)',
    );
  });

  it('turns a link around blocks into one line of link text', () => {
    const html =
      '<a href="https://x.test/p/1"><div><img src="https://x.test/1.jpg" alt="Lamp"><h3>Desk lamp</h3><p>$25</p></div></a>';
    expect(md(html)).toBe('[![Lamp](https://x.test/1.jpg) Desk lamp $25](https://x.test/p/1)');
  });

  it('drops links with no text and keeps only the text of javascript: links', () => {
    expect(
      md(
        '<p>A<a href="https://x.test/"><svg><title>Home</title></svg></a> <a href="javascript:void(0)">menu</a></p>',
      ),
    ).toBe('A menu');
  });

  it('leaves out <select> options, inline SVG text and scripts', () => {
    expect(
      md(
        '<p>Size</p><select><option>S</option><option>M</option></select><svg><text>chart</text></svg><script>x()</script>',
      ),
    ).toBe('Size');
  });

  it('collapses runs of blank lines outside code and trims the result', () => {
    expect(md('<p>a</p><p>&nbsp;</p><div><br><br><br></div><p>b</p>\n\n')).toBe('a\n\nb');
  });

  it('converts trees nested deeper than its recursion could follow, keeping the deep text', () => {
    const depth = 20_000;
    const html = `<p><a href="https://x.test/">top</a></p>${'<div>'.repeat(depth)}<b>deep</b> text${'</div>'.repeat(depth)}`;
    expect(md(html)).toBe('[top](https://x.test/)\n\ndeep text');
  });

  it('leaves nesting as deep as parsed pages get untouched', () => {
    const html = `${'<div>'.repeat(500)}<p><b>deep</b> text</p>${'</div>'.repeat(500)}`;
    expect(md(html)).toBe('**deep** text');
  });

  it('converts a Document by its body, never its head', () => {
    const document = parseHtml('<html><head><title>Head title</title></head><body><p>Body</p></body></html>');
    expect(toMarkdown(document, { removeBase64Images: true })).toBe('Body');
  });
});
