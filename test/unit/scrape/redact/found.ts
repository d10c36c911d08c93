import { disjointSpans, type PiiSpan } from '../../../../server/scrape/enrich/redact/pii-span';

/** The strings a detector found in `text`, in order and without overlaps: what the tests compare. */
export const found = (text: string, detect: (text: string) => PiiSpan[]) =>
  disjointSpans(detect(text)).map((span) => text.slice(span.start, span.end));
