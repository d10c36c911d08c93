import type { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import { InvalidSelectorError, validateSelectors } from '../../../shared/html/clean-html';
import { errors } from '../../platform/errors';

/**
 * Refuses a request whose selectors (includeTags, excludeTags, the attributes format's) do not
 * parse: a bad selector is the caller's mistake, said before a browser is spent on the page.
 */
export function checkSelectors(request: ScrapeRequestV2): void {
  const selectors = [
    ...(request.includeTags ?? []),
    ...(request.excludeTags ?? []),
    ...request.formats.flatMap((format) =>
      format.type === 'attributes' ? format.selectors.map(({ selector }) => selector) : [],
    ),
  ];
  if (selectors.length === 0) return;
  try {
    validateSelectors(selectors);
  } catch (err) {
    if (err instanceof InvalidSelectorError) throw errors.invalidSelector(err.selector);
    throw err;
  }
}
