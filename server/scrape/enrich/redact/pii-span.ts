import type { PiiEntity } from '../../../../shared/api/v2/redact-pii';

/** A stretch of text `[start, end)` that holds personal data of one kind. */
export interface PiiSpan {
  start: number;
  end: number;
  entity: PiiEntity;
}

/**
 * Spans sorted and made disjoint: where two overlap (a phone number inside a secret assignment,
 * an email inside a URL with credentials), the one that starts first wins, the longer one on a tie.
 */
export function disjointSpans(spans: readonly PiiSpan[]): PiiSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: PiiSpan[] = [];
  let reached = 0;
  for (const span of sorted) {
    if (span.end <= span.start || span.start < reached) continue;
    kept.push(span);
    reached = span.end;
  }
  return kept;
}

export type ReplaceStyle = 'tag' | 'mask' | 'remove';

/**
 * The text with every span replaced: `tag` writes `<EMAIL>` (in HTML `&lt;EMAIL&gt;`, so the
 * marker shows as text instead of becoming an element), `mask` one `*` per character of the span,
 * `remove` nothing.
 */
export function replaceSpans(
  text: string,
  spans: readonly PiiSpan[],
  { style, html }: { style: ReplaceStyle; html: boolean },
): string {
  if (spans.length === 0) return text;
  const parts: string[] = [];
  let from = 0;
  for (const span of disjointSpans(spans)) {
    parts.push(
      text.slice(from, span.start),
      replacement(text.slice(span.start, span.end), span.entity, style, html),
    );
    from = span.end;
  }
  parts.push(text.slice(from));
  return parts.join('');
}

function replacement(original: string, entity: PiiEntity, style: ReplaceStyle, html: boolean): string {
  switch (style) {
    case 'tag':
      return html ? `&lt;${entity}&gt;` : `<${entity}>`;
    case 'mask':
      // Characters, not UTF-16 units: a name with an emoji or an astral letter keeps its length.
      return '*'.repeat([...original].length);
    case 'remove':
      return '';
  }
}
