import { parseHtml } from '../../../shared/html/parse-html';
import type { PageCapture } from '../../../shared/protocol/messages';

/** The document's `warning` when the capture is only a loading placeholder (docs/wire-contract.md §3.5: warnings join with spaces). */
export const LOADING_PLACEHOLDER_WARNING =
  'The page still showed a loading placeholder when it was captured, so its content may be missing. Such captures are not kept in the cache: try again, or wait for the content with waitFor or a wait action.';

/** A placeholder says little: more visible text than this is a page. */
const MAX_TEXT_CHARS = 200;
/** Text besides the loading message: a site name, "reload if this takes too long". */
const MAX_OTHER_CHARS = 80;

/**
 * Loading messages in the languages sites most often show. `laden` and other words that are
 * also ordinary nouns are left out: the cost of missing a placeholder is one cached copy, the cost
 * of a false one is a page that is never cached.
 */
const PHRASE =
  '(?:loading|please wait|one moment(?: please)?|just a moment|hang (?:on|tight)|initiali[sz]ing|wird geladen|chargement(?: en cours)?|cargando|carregando|caricamento|загрузка|読み込み中|加载中|載入中|로딩 중)';
/**
 * A loading message: a phrase on its own (then an ellipsis, a stop, a comma, a percentage or the
 * end of the text), or a phrase whose sentence ends in an ellipsis ("Loading your dashboard…").
 * "Loading dock hours: 9–5" is neither.
 */
const LOADING_MESSAGE = new RegExp(
  `(?<!\\p{L})${PHRASE}(?:\\s*(?:\\.{2,}|…|[.!,:]|\\d{1,3}\\s?%)|(?=\\s*$))|(?<!\\p{L})${PHRASE}[^.!?…]{0,40}(?:\\.{3}|…)`,
  'giu',
);

/** Class, id or test hooks of spinners and skeleton screens. */
const SPINNER_NAME = /(?:^|[-_\s])(?:spinner|spin|loader|loading|preloader|skeleton|progress)(?:$|[-_\s])/i;
/** Mount points of front-end frameworks (as in page-needs-javascript.ts). */
const APP_ROOTS = '#root, #app, #__next, #__nuxt, #___gatsby, #svelte, app-root, [ng-app], [data-reactroot]';
/** What shows content without text: a page of these is a picture, a video, a map, a game. */
const MEDIA = 'img, picture, video, canvas, iframe, object, embed';

const NOT_TEXT = new Set(['script', 'style', 'noscript', 'template', 'head']);
const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/** The readable text inside `root`, text nodes joined with spaces, whitespace collapsed. */
function visibleText(root: Node): string {
  const parts: string[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (node.nodeType === TEXT_NODE) parts.push(node.nodeValue ?? '');
    else if (node.nodeType === ELEMENT_NODE && !NOT_TEXT.has((node as Element).localName)) {
      const children = node.childNodes;
      for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index] as Node);
    }
  }
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

const RAW_TEXT_ELEMENT = /^<(script|style|noscript|template)[\s>/]/i;

/**
 * Whether the HTML holds more than `limit` characters of text outside tags, scripts, styles and
 * comments (whitespace not counted), read without a parse and stopping as soon as it knows: a
 * page of any length says so within its first kilobytes, and only short ones are parsed.
 */
function hasMoreTextThan(html: string, limit: number): boolean {
  let count = 0;
  let at = 0;
  while (at < html.length) {
    const tag = html.indexOf('<', at);
    const end = tag === -1 ? html.length : tag;
    for (let index = at; index < end; index += 1) {
      if (html.charCodeAt(index) > 32 && (count += 1) > limit) return true;
    }
    if (tag === -1) return false;
    const rawText = RAW_TEXT_ELEMENT.exec(html.slice(tag, tag + 10));
    let close: number;
    if (html.startsWith('<!--', tag)) close = html.indexOf('-->', tag + 4);
    else if (rawText !== null) {
      const closing = new RegExp(`</${rawText[1] ?? ''}`, 'gi');
      closing.lastIndex = tag + 1;
      const found = closing.exec(html);
      close = found === null ? -1 : html.indexOf('>', found.index);
    } else close = html.indexOf('>', tag);
    if (close === -1) return false;
    at = close + 1;
  }
  return false;
}

const isSpinner = (element: Element) =>
  element.getAttribute('role') === 'progressbar' ||
  element.getAttribute('aria-busy') === 'true' ||
  SPINNER_NAME.test(
    `${element.getAttribute('class') ?? ''} ${element.id} ${element.getAttribute('data-testid') ?? ''}`,
  );

/** Whether the text is a loading message and little else. */
export function isLoadingMessage(text: string): boolean {
  if (text.length === 0 || text.length > MAX_TEXT_CHARS) return false;
  let found = false;
  const rest = text.replace(LOADING_MESSAGE, () => {
    found = true;
    return ' ';
  });
  return found && rest.replace(/[\s\p{P}\p{S}]+/gu, ' ').trim().length <= MAX_OTHER_CHARS;
}

/**
 * Whether an HTML capture is a page that had not loaded yet: what it shows is a loading message
 * and little else, or no text at all with a spinner or an empty app root (and no picture, video
 * or canvas, which show content without text). Judged on the rendered HTML (hidden nodes are left
 * out there), whatever formats were asked for. Short pages of their own ("OK", "404 Not Found", a
 * title and a paragraph) say nothing about loading, and are not placeholders.
 */
export function looksLikeLoadingPlaceholder(
  capture: Pick<PageCapture, 'rawHtml' | 'renderedHtml' | 'contentType' | 'pdfBase64'>,
): boolean {
  if (capture.pdfBase64 !== undefined) return false;
  if (capture.contentType !== undefined && !/html/i.test(capture.contentType)) return false;
  const html = capture.renderedHtml.trim() === '' ? capture.rawHtml : capture.renderedHtml;
  if (hasMoreTextThan(html, 4 * MAX_TEXT_CHARS)) return false;
  const document = parseHtml(html);
  const body = document.body;
  const text = visibleText(body);
  if (text.length > 0) return isLoadingMessage(text);
  const elements = Array.from(body.querySelectorAll('*'));
  if (elements.some((element) => element.matches(MEDIA) && !insideSpinner(element))) return false;
  if (elements.some(isSpinner)) return true;
  return Array.from(body.querySelectorAll(APP_ROOTS)).some(
    (root) =>
      root.children.length === 0 || Array.from(root.children).every((child) => NOT_TEXT.has(child.localName)),
  );
}

function insideSpinner(element: Element): boolean {
  for (let node: Element | null = element; node !== null; node = node.parentElement) {
    if (isSpinner(node)) return true;
  }
  return false;
}
