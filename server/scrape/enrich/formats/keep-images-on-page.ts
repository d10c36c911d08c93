import { resolveUrl } from '../../../../shared/html/resolve-url';

/**
 * The images a model named that the page holds: absolute http(s) URLs that occur in the page's
 * Markdown (as written or made absolute). A model may make up an image URL; the page cannot.
 */
export function keepImagesOnPage(
  images: ReadonlyArray<{ url: string; alt?: string | undefined }> | undefined,
  markdown: string,
  pageUrl: string,
): Array<{ url: string; alt?: string }> {
  const kept: Array<{ url: string; alt?: string }> = [];
  for (const { url, alt } of images ?? []) {
    const absolute = resolveUrl(url, pageUrl);
    if (absolute === undefined || !/^https?:/i.test(absolute)) continue;
    if (!markdown.includes(url) && !markdown.includes(absolute)) continue;
    if (kept.some((image) => image.url === absolute)) continue;
    kept.push(alt === undefined ? { url: absolute } : { url: absolute, alt });
  }
  return kept;
}
