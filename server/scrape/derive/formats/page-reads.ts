import type { MenuProfile, ProductProfile } from '../../../../shared/api/responses/page-profiles';
import type { FormatV2 } from '../../../../shared/api/v2/formats';
import { documentBaseUrl } from '../../../../shared/html/resolve-url';
import { type AttributeSelector, type AttributesRead, readAttributes } from './attributes-format';
import { type MediaKind, type PageMedia, pageMedia } from './media-formats';
import { menuFromStructuredData } from './menu-from-structured-data';
import { productFromStructuredData } from './product-from-structured-data';
import { extractRdfaLite } from './rdfa-lite';
import { extractJsonLd, extractMicrodata, type JsonObject } from './structured-data';

/**
 * What the formats that read the page's HTML itself ask of the derivation worker: attributes,
 * audio / video, product and menu. Plain values, so it travels with the derive options.
 */
export interface PageReadsRequest {
  attributes?: AttributeSelector[];
  media?: MediaKind[];
  product?: boolean;
  menu?: boolean;
  /** The knowledgeGraph format: the page's schema.org items, by the syntax that published them. */
  structured?: boolean;
}

/** The page's schema.org items by syntax (knowledgeGraph reads them; enrich/formats/knowledge-graph-format.ts). */
export interface StructuredItems {
  jsonLd: JsonObject[];
  microdata: JsonObject[];
  rdfa: JsonObject[];
}

/** What the worker read; product and menu are absent when the page publishes none. */
export interface PageReads {
  attributes?: AttributesRead;
  media?: PageMedia;
  product?: ProductProfile;
  menu?: MenuProfile;
  structured?: StructuredItems;
}

/** The reads a request's formats need, or undefined when none does. */
export function pageReadsRequest(formats: readonly FormatV2[]): PageReadsRequest | undefined {
  const request: PageReadsRequest = {};
  for (const format of formats) {
    if (format.type === 'attributes') request.attributes = format.selectors;
    else if (format.type === 'audio' || format.type === 'video') (request.media ??= []).push(format.type);
    else if (format.type === 'product') request.product = true;
    else if (format.type === 'menu') request.menu = true;
    else if (format.type === 'knowledgeGraph') request.structured = true;
  }
  return Object.keys(request).length === 0 ? undefined : request;
}

/**
 * Reads what `request` asks from the page's HTML as the browser held it (the capture's rawHtml,
 * after scripts): it runs in the derivation worker, on the document the worker parsed anyway,
 * before anything changes it.
 */
export function readPage(document: Document, pageUrl: string, request: PageReadsRequest): PageReads {
  const reads: PageReads = {};
  const base = documentBaseUrl(document, pageUrl);
  if (request.attributes !== undefined) reads.attributes = readAttributes(document, request.attributes);
  const needsStructured = request.media !== undefined || request.product === true || request.menu === true;
  const structured = needsStructured ? [...extractJsonLd(document), ...extractMicrodata(document)] : [];
  if (request.media !== undefined) reads.media = pageMedia(document, base, structured);
  if (request.product === true) {
    const product = productFromStructuredData(structured, pageUrl);
    if (product !== undefined) reads.product = product;
  }
  if (request.structured === true) {
    reads.structured = {
      jsonLd: extractJsonLd(document),
      microdata: extractMicrodata(document),
      rdfa: extractRdfaLite(document),
    };
  }
  if (request.menu === true) {
    const siteName = document.querySelector('meta[property="og:site_name"]')?.getAttribute('content')?.trim();
    const menu = menuFromStructuredData(structured, pageUrl, siteName || undefined);
    if (menu !== undefined) reads.menu = menu;
  }
  return reads;
}

/** What a document that is not HTML (JSON, plain text) gives these formats: nothing. */
export function emptyReads(request: PageReadsRequest): PageReads {
  return {
    ...(request.attributes === undefined
      ? {}
      : {
          attributes: {
            attributes: request.attributes.map((selector) => ({ ...selector, values: [] })),
            tooCostly: [],
            truncated: [],
          },
        }),
    ...(request.media === undefined ? {} : { media: { audio: [], video: [] } }),
    ...(request.structured === true ? { structured: { jsonLd: [], microdata: [], rdfa: [] } } : {}),
  };
}
