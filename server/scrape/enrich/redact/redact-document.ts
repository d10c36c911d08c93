import type { RedactionSettings } from '../../../../shared/api/v2/redact-pii';
import { errors } from '../../../platform/errors';
import { LlmError, type LlmProvider } from '../../../platform/llm';
import type { ScrapeDocument } from '../../types';
import { askLlmForNames, type NamedEntity } from './ask-llm-for-names';
import { modelText } from './model-text';
import { redactText } from './redact-text';

/** Text sent to the model per call, and calls per page: names past them are not looked for. */
export const MODEL_CHUNK_CHARS = 20_000;
export const MAX_MODEL_CHUNKS = 6;

/**
 * Metadata that identifies the document rather than tells about the page: the URLs the caller
 * asked for and was served, ids, and what Tabhive itself reports.
 */
const IDENTIFYING_METADATA = new Set([
  'sourceURL',
  'url',
  'scrapeId',
  'statusCode',
  'contentType',
  'proxyUsed',
  'cacheState',
  'cachedAt',
  'creditsUsed',
  'numPages',
  'language',
]);

type Path = ReadonlyArray<string | number>;

/** An unparsed PDF (`parsers: []`) comes back as its base64 in `markdown` (docs/wire-contract.md §3.1). */
const isPdfBytes = (path: Path, value: unknown) =>
  path[0] === 'markdown' && typeof value === 'string' && value.startsWith('JVBER');

/** Images and files: no text to redact (a warning says so). */
const isBinary = (path: Path, value: string) =>
  isPdfBytes(path, value) ||
  path[0] === 'screenshot' ||
  (path[0] === 'actions' && (path[1] === 'screenshots' || path[1] === 'pdfs')) ||
  (value.startsWith('data:') && value.includes(';base64,'));

const isHtml = (path: Path) =>
  path[0] === 'html' ||
  path[0] === 'rawHtml' ||
  (path[0] === 'actions' && path[1] === 'scrapes' && path[3] === 'html');

const kept = (path: Path) =>
  path[0] === 'warning' || (path[0] === 'metadata' && IDENTIFYING_METADATA.has(String(path[1])));

export interface RedactionDeps {
  /** The model for PERSON and LOCATION; undefined without one (or under zero data retention). */
  llm: LlmProvider | undefined;
  /** Why there is no model, for the warning: none configured, or zeroDataRetention forbids it. */
  noModelReason?: 'unconfigured' | 'zeroDataRetention';
}

/**
 * The document with personal data replaced in every text it carries: markdown, html, rawHtml,
 * links and images (URLs carry addresses and tokens too: `mailto:<EMAIL>`), summary, json values,
 * any other format's strings, and the page's metadata (title, description, og and other meta
 * tags); the identifying metadata (sourceURL, url, scrapeId, …) is kept. EMAIL, PHONE, FINANCIAL
 * and SECRET are found by patterns; PERSON and LOCATION by the LLM when one is configured (and
 * mode is not `fast`), else a warning says they were not redacted. If the model fails, the
 * scrape fails: a page returned with names left in would be worse than no page.
 */
export async function redactDocument(
  document: ScrapeDocument,
  settings: RedactionSettings,
  { llm, noModelReason = 'unconfigured' }: RedactionDeps,
): Promise<ScrapeDocument> {
  const warnings: string[] = [];
  const wanted = (['PERSON', 'LOCATION'] as const).filter((entity) => settings.entities.has(entity));
  let names: Array<{ text: string; entity: NamedEntity }> = [];
  if (wanted.length > 0) {
    const which = wanted.join(' and ');
    if (settings.mode === 'fast') {
      warnings.push(`redactPII mode "fast" uses patterns only: ${which} were not redacted.`);
    } else if (llm === undefined) {
      warnings.push(
        noModelReason === 'zeroDataRetention'
          ? `With zeroDataRetention the page is not sent to the LLM: ${which} were not redacted.`
          : `${which} were not redacted: finding them needs an LLM (LLM_BASE_URL), and none is configured.`,
      );
    } else {
      const text = modelText(document as unknown as Record<string, unknown>);
      const chunks = chunksOf(text);
      if (chunks.length > MAX_MODEL_CHUNKS) {
        warnings.push(
          `${which} were looked for in the first ${MAX_MODEL_CHUNKS * MODEL_CHUNK_CHARS} characters of the page's text only.`,
        );
      }
      try {
        const found = await Promise.all(
          chunks.slice(0, MAX_MODEL_CHUNKS).map((chunk) => askLlmForNames(llm, chunk, wanted)),
        );
        names = distinctNames(found.flat(), settings.mode === 'aggressive');
      } catch (err) {
        if (err instanceof LlmError) throw errors.redactionFailed(err.message);
        throw err;
      }
    }
  }
  const hasImages =
    document.screenshot !== undefined ||
    (document.actions?.screenshots.length ?? 0) > 0 ||
    (document.actions?.pdfs?.length ?? 0) > 0 ||
    isPdfBytes(['markdown'], document.markdown);
  if (hasImages)
    warnings.push('redactPII: screenshots and PDFs are images and files; they were not redacted.');

  const redact = (value: unknown, path: Path): unknown => {
    if (typeof value === 'string') {
      if (kept(path) || isBinary(path, value)) return value;
      return redactText(value, settings, { names, html: isHtml(path) });
    }
    if (Array.isArray(value)) return value.map((item, index) => redact(item, [...path, index]));
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, redact(item, [...path, key])]),
      );
    }
    return value;
  };
  // Field by field, giving the event loop a turn between them: a page's raw HTML runs to megabytes,
  // and its search takes a few hundred milliseconds of them.
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document)) {
    fields[key] = redact(value, [key]);
    await new Promise((resolve) => setImmediate(resolve));
  }
  // The walk keeps every key and the type of every value that is not a string: the shape stays a ScrapeDocument.
  const redacted = fields as unknown as ScrapeDocument;
  if (warnings.length === 0) return redacted;
  const warning = [redacted.warning, ...warnings].filter((part) => part !== undefined).join(' ');
  return { ...redacted, warning };
}

/** The text in pieces of at most MODEL_CHUNK_CHARS, cut at whitespace so a name stays whole. */
function chunksOf(text: string): string[] {
  const chunks: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + MODEL_CHUNK_CHARS);
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end);
      const newline = text.lastIndexOf('\n', end);
      const cut = Math.max(space, newline);
      if (cut > at + MODEL_CHUNK_CHARS / 2) end = cut;
    }
    chunks.push(text.slice(at, end));
    at = end;
  }
  return chunks;
}

/**
 * Each name once, longest first. In the aggressive mode the parts of a person's name are names
 * too (`Ada Lovelace` → `Ada`, `Lovelace`), so that "Ms Lovelace" later on the page is caught.
 */
function distinctNames(
  names: ReadonlyArray<{ text: string; entity: NamedEntity }>,
  aggressive: boolean,
): Array<{ text: string; entity: NamedEntity }> {
  const byText = new Map<string, NamedEntity>();
  for (const { text, entity } of names) {
    if (!byText.has(text)) byText.set(text, entity);
    if (aggressive && entity === 'PERSON') {
      for (const part of text.split(/\s+/)) {
        if (part.length >= 3 && part[0] !== part[0]?.toLowerCase() && !byText.has(part))
          byText.set(part, entity);
      }
    }
  }
  return [...byText]
    .map(([text, entity]) => ({ text, entity }))
    .sort((a, b) => b.text.length - a.text.length);
}
