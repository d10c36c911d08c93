import { deriveFormats } from '../../shared/formats/derive-formats';
import type { InPageCapture } from '../page/capture-page';

/** What the popup shows for a page a person scraped by hand. */
export interface HandScrape {
  url: string;
  title: string;
  description: string | undefined;
  markdown: string;
  html: string;
  links: string[];
}

/**
 * Turns a tab's capture into Markdown, cleaned HTML and links with the very code the server runs
 * on browser captures (shared/formats), so the popup's Markdown is the API's Markdown for the
 * same page. `onlyMainContent` leaves out navigation, footers and other chrome, as the API's
 * option of that name does; when that leaves nothing, the whole page is used (docs/wire-contract.md §3.1).
 */
export function convertCapture(
  capture: InPageCapture,
  { onlyMainContent }: { onlyMainContent: boolean },
): HandScrape {
  const derived = deriveFormats(
    {
      url: capture.url,
      statusCode: 200,
      contentType: capture.documentContentType,
      rawHtml: capture.rawHtml,
      renderedHtml: capture.renderedHtml,
    },
    { formats: new Set(['markdown', 'html', 'links']), onlyMainContent, removeBase64Images: true },
  );
  return {
    url: capture.url,
    title: firstText(derived.metadata.title) ?? firstText(derived.metadata.ogTitle) ?? capture.url,
    description: firstText(derived.metadata.description),
    markdown: derived.markdown ?? '',
    html: derived.html ?? '',
    links: derived.links ?? [],
  };
}

function firstText(value: string | string[] | undefined): string | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  return text === '' ? undefined : text;
}
