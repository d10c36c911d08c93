import TurndownService from 'turndown';
import { highlightedCodeBlock, strikethrough } from 'turndown-plugin-gfm';
import { parseHtml } from '../html/parse-html';
import { gfmTables } from './gfm-tables';
import { limitDepth } from './limit-depth';

export interface MarkdownOptions {
  /** Replace images with `data:image/…;base64,` sources by a placeholder (docs/wire-contract.md §3.1). */
  removeBase64Images: boolean;
}

export const BASE64_IMAGE_PLACEHOLDER = '<Base64-Image-Removed>';

const BASE64_IMAGE_SRC = /^\s*data:image\/[^,]*;base64,/i;
/** Elements whose text is never prose: inline SVG titles and labels, the options of a <select>. */
const NOT_PROSE = new Set(['script', 'style', 'noscript', 'template', 'svg', 'select']);

/**
 * Converts HTML to GitHub-flavoured Markdown: ATX headings, fenced code, `-` bullets, GFM tables.
 * Given a Document, converts its body. A string is parsed with linkedom, not with turndown's own
 * parser, so every caller converts the same DOM.
 */
export function toMarkdown(source: string | Document | HTMLElement, options: MarkdownOptions): string {
  const root = typeof source === 'string' ? parseHtml(source).body : 'body' in source ? source.body : source;
  return tidy(serviceFor(options.removeBase64Images).turndown(limitDepth(root)));
}

// Building a TurndownService (rules, plugins) costs more than converting a small page, so one per
// option set is made on first use and kept; conversion itself keeps no state between calls.
const services = new Map<boolean, TurndownService>();

function serviceFor(removeBase64Images: boolean): TurndownService {
  let service = services.get(removeBase64Images);
  if (!service) {
    service = createService(removeBase64Images);
    services.set(removeBase64Images, service);
  }
  return service;
}

function createService(removeBase64Images: boolean): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    fence: '```',
    bulletListMarker: '-',
    emDelimiter: '*',
    strongDelimiter: '**',
    hr: '---',
  });
  service.use([strikethrough, highlightedCodeBlock, gfmTables]);
  service.remove((node) => NOT_PROSE.has(node.localName));

  service.addRule('listItem', {
    filter: 'li',
    replacement: (content, node, options) => {
      const parent = node.parentElement;
      let marker = `${options.bulletListMarker ?? '-'} `;
      if (parent?.localName === 'ol') {
        const start = Number.parseInt(parent.getAttribute('start') ?? '', 10);
        marker = `${(Number.isFinite(start) ? start : 1) + Array.from(parent.children).indexOf(node)}. `;
      }
      const endsWithParagraph = content.endsWith('\n');
      const body =
        content
          .replace(/^\n+|\n+$/g, '')
          // The checkbox rule cannot see the text after it: `[x]  done` when the HTML has a space.
          .replace(/^\[([ x])\] +/, '[$1] ') + (endsWithParagraph ? '\n' : '');
      const indented = body.replace(/\n/g, `\n${' '.repeat(marker.length)}`);
      return marker + indented + (node.nextSibling ? '\n' : '');
    },
  });

  service.addRule('codeBlock', {
    filter: 'pre',
    replacement: (_content, node) => `\n\n${fencedCodeBlock(preformattedText(node), codeLanguage(node))}\n\n`,
  });

  service.addRule('link', {
    filter: (node) => node.localName === 'a' && !!node.getAttribute('href'),
    replacement: (content, node) => {
      // A link wrapping blocks (a product card: image, heading, price) would put blank lines and
      // `###` inside link text, which Markdown cannot hold; it becomes one line instead.
      const text = content.includes('\n')
        ? content
            .split('\n')
            .map((line) => line.trim().replace(/^#{1,6}\s+/, ''))
            .filter((line) => line !== '')
            .join(' ')
        : content;
      // An icon-only link would be `[](url)`: noise to a reader, and the links format has the URL.
      if (text.trim() === '') return '';
      const href = node.getAttribute('href') ?? '';
      if (/^\s*javascript:/i.test(href)) return text;
      const title = (node.getAttribute('title') ?? '').replace(/\s+/g, ' ').trim().replace(/"/g, '\\"');
      return `[${text}](${linkDestination(href)}${title ? ` "${title}"` : ''})`;
    },
  });

  service.addRule('controlButton', {
    // "Copy", "Add to cart", "Accept all": controls, not content. Buttons that reveal content
    // (accordion headers, tabs) carry the question or the tab's name, so they stay.
    filter: (node) =>
      node.localName === 'button' &&
      !node.hasAttribute('aria-expanded') &&
      !node.hasAttribute('aria-controls') &&
      node.getAttribute('role') !== 'tab',
    replacement: () => '',
  });

  service.addRule('taskListItem', {
    // linkedom has no `checked` property, so turndown-plugin-gfm's rule would show every box empty.
    filter: (node) =>
      node.localName === 'input' &&
      node.getAttribute('type')?.toLowerCase() === 'checkbox' &&
      node.parentElement?.localName === 'li',
    replacement: (_content, node) => (node.hasAttribute('checked') ? '[x] ' : '[ ] '),
  });

  if (removeBase64Images) {
    service.addRule('base64Image', {
      filter: (node) => node.localName === 'img' && BASE64_IMAGE_SRC.test(node.getAttribute('src') ?? ''),
      replacement: (_content, node) => {
        const alt = (node.getAttribute('alt') ?? '')
          .replace(/\s+/g, ' ')
          .trim()
          .replace(/([\\[\]])/g, '\\$1');
        return `![${alt}](${BASE64_IMAGE_PLACEHOLDER})`;
      },
    });
  }
  return service;
}

/** A fenced code block, its fence longer than any backtick fence inside `code`. */
export function fencedCodeBlock(code: string, language = ''): string {
  let longestFence = 0;
  for (const [fence] of code.matchAll(/^ {0,3}`{3,}/gm)) {
    longestFence = Math.max(longestFence, fence.trim().length);
  }
  const fence = '`'.repeat(Math.max(3, longestFence + 1));
  return `${fence}${language}\n${code.replace(/\n+$/, '')}\n${fence}`;
}

/** Text of a `<pre>`, with the line breaks that highlighters express as `<br>` or one element per line. */
function preformattedText(node: Node): string {
  let text = '';
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === 3) text += child.textContent ?? '';
    else if (child.nodeName === 'BR') text += '\n';
    else {
      text += preformattedText(child);
      if ((child.nodeName === 'DIV' || child.nodeName === 'P') && !text.endsWith('\n')) text += '\n';
    }
  }
  return text;
}

function codeLanguage(pre: Element): string {
  const code = pre.querySelector('code');
  for (const element of code ? [code, pre] : [pre]) {
    const fromClass = /(?:^|\s)(?:language|lang)-([\w#+.-]+)/.exec(element.getAttribute('class') ?? '')?.[1];
    const fromData = element.getAttribute('data-language') ?? element.getAttribute('data-lang');
    const language = fromClass ?? fromData;
    if (language && /^[\w#+.-]+$/.test(language)) return language;
  }
  return '';
}

/** As turndown writes destinations: parentheses and angle brackets escaped, `<…>` around spaces. */
function linkDestination(href: string): string {
  const escaped = href.replace(/([<>()])/g, '\\$1');
  return escaped.includes(' ') ? `<${escaped}>` : escaped;
}

/** Collapses runs of blank lines to one and trims, leaving fenced code untouched. */
function tidy(markdown: string): string {
  const lines: string[] = [];
  let fence: string | undefined;
  let previousBlank = true;
  for (const line of markdown.split('\n')) {
    if (fence !== undefined) {
      lines.push(line);
      const closing = /^\s*(`{3,}|~{3,})\s*$/.exec(line)?.[1];
      if (closing && closing[0] === fence[0] && closing.length >= fence.length) fence = undefined;
      continue;
    }
    if (line.trim() === '') {
      if (!previousBlank) {
        // Trailing spaces are a hard line break only when a line follows; before a blank, debris.
        lines.push((lines.pop() ?? '').trimEnd(), '');
      }
      previousBlank = true;
      continue;
    }
    fence = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    lines.push(line);
    previousBlank = false;
  }
  return lines.join('\n').trim();
}
