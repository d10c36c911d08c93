/** Whether a document's Content-Type is a page (HTML or XHTML); an absent type is taken as one. */
export const isHtml = (contentType: string | undefined): boolean =>
  contentType === undefined || /^\s*(text\/html|application\/xhtml\+xml)/i.test(contentType);
