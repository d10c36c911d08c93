/** A page as a browser captured it, for the derivation pool: `html` both as served and as rendered. */
export const capturedPage = (html: string) => ({
  url: 'https://example.test/',
  statusCode: 200,
  rawHtml: html,
  renderedHtml: html,
});

/** Derivation options asking for the markdown of the whole page, PDFs parsed. */
export const markdownOptions = {
  formats: new Set(['markdown' as const]),
  onlyMainContent: false,
  removeBase64Images: true,
  parsePdf: true,
};
