import type { TaskErrorCode } from '../../shared/protocol/messages';

/** A task failure with the code the server maps to its API error. */
export class PageTaskError extends Error {
  readonly code: TaskErrorCode;
  constructor(code: TaskErrorCode, message: string) {
    super(message);
    this.name = 'PageTaskError';
    this.code = code;
  }
}

/** Classifies a Chromium net error (`net::ERR_…`) of a failed navigation. */
export function navigationError(errorText: string): PageTaskError {
  if (/NAME_NOT_RESOLVED|NAME_RESOLUTION_FAILED|DNS_/.test(errorText)) {
    return new PageTaskError('SCRAPE_DNS_RESOLUTION_ERROR', errorText);
  }
  // Ad blocking never blocks a page itself, so a blocked navigation met the URL policy's rules.
  if (/BLOCKED_BY_CLIENT/.test(errorText)) {
    return new PageTaskError('URL_BLOCKED', `${errorText}: the address is refused by the URL policy`);
  }
  if (/CERT_|SSL_/.test(errorText)) return new PageTaskError('SCRAPE_SSL_ERROR', errorText);
  return new PageTaskError('SCRAPE_SITE_ERROR', errorText);
}
