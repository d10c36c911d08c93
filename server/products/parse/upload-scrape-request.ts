import type { ParseOptionsV2 } from '../../../shared/api/v2/parse-request';
import type { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { PageCapture } from '../../../shared/protocol/messages';
import type { Converted } from './convert/convert-document';

/**
 * The address that stands for an upload in the scrape pipeline: `.invalid` can never resolve
 * (RFC 6761), so nothing is fetched from it, and relative links in the document resolve under it
 * rather than under a real site. It is the document's `metadata.url`; `sourceURL` is the file name.
 */
export const UPLOAD_ORIGIN = 'https://upload.invalid';

export function uploadUrl(filename: string): string {
  return `${UPLOAD_ORIGIN}/${encodeURIComponent(filename)}`;
}

/**
 * The scrape request for an upload: its options, with the page work parse does not do left at
 * "none" and nothing cached. HTML made from a DOCX, a workbook or slides is all content (no menus,
 * no footers), so main-content extraction is left to uploaded HTML only.
 */
export function uploadScrapeRequest(
  options: ParseOptionsV2,
  filename: string,
  generatedHtml: boolean,
): ScrapeRequestV2 {
  const {
    waitFor: _waitFor,
    mobile: _mobile,
    actions: _actions,
    location: _location,
    maxAge: _maxAge,
    minAge: _minAge,
    storeInCache: _storeInCache,
    lockdown: _lockdown,
    proxy: _proxy,
    ...documentOptions
  } = options;
  return {
    ...documentOptions,
    onlyMainContent: generatedHtml ? false : options.onlyMainContent,
    url: { raw: filename, url: uploadUrl(filename) },
    waitFor: 0,
    mobile: false,
    storeInCache: false,
    proxy: 'basic',
  };
}

/** The capture the pipeline derives the formats from, as if a browser had loaded the document. */
export function uploadCapture(converted: Converted, filename: string, bytes: Uint8Array): PageCapture {
  const base = { url: uploadUrl(filename), statusCode: 200, browserClass: 'basic' as const };
  switch (converted.as) {
    case 'html':
      return {
        ...base,
        contentType: 'text/html; charset=utf-8',
        rawHtml: converted.html,
        renderedHtml: converted.html,
      };
    case 'text':
      return { ...base, contentType: 'text/plain; charset=utf-8', rawHtml: converted.text, renderedHtml: '' };
    case 'pdf':
      return {
        ...base,
        contentType: 'application/pdf',
        rawHtml: '',
        renderedHtml: '',
        pdfBase64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
      };
  }
}
