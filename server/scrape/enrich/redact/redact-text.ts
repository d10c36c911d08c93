import type { RedactionSettings } from '../../../../shared/api/v2/redact-pii';
import type { NamedEntity } from './ask-llm-for-names';
import { detectEmails } from './email-detector';
import { detectFinancial } from './financial-detector';
import { findNamedSpans } from './find-named-spans';
import { withoutEscapes } from './markdown-escapes';
import { detectPhones } from './phone-detector';
import { type PiiSpan, replaceSpans } from './pii-span';
import { detectSecrets } from './secret-detector';

/** The pattern-based entities and their detectors. */
const DETECTORS = {
  EMAIL: detectEmails,
  PHONE: detectPhones,
  FINANCIAL: detectFinancial,
  SECRET: detectSecrets,
} as const satisfies Record<string, (text: string, options: { aggressive: boolean }) => PiiSpan[]>;

/** Spans of personal data in `text`: the patterns of the asked-for entities, and the names a model found. */
export function findPii(
  text: string,
  settings: RedactionSettings,
  names: ReadonlyArray<{ text: string; entity: NamedEntity }> = [],
): PiiSpan[] {
  if (text === '') return [];
  const aggressive = settings.mode === 'aggressive';
  const spans: PiiSpan[] = [];
  for (const [entity, detect] of Object.entries(DETECTORS)) {
    if (settings.entities.has(entity as keyof typeof DETECTORS)) spans.push(...detect(text, { aggressive }));
  }
  if (names.length > 0) spans.push(...findNamedSpans(text, names));
  return spans;
}

/**
 * `text` with its personal data replaced in the requested style (`html`: the text is HTML source).
 * Text that is not HTML is searched as read, without Markdown's backslash escapes, which would
 * otherwise cut `john\_doe@example.com` or a `ghp\_…` token in two.
 */
export function redactText(
  text: string,
  settings: RedactionSettings,
  {
    names = [],
    html = false,
  }: { names?: ReadonlyArray<{ text: string; entity: NamedEntity }>; html?: boolean } = {},
): string {
  const { view, origin } = html ? { view: text, origin: undefined } : withoutEscapes(text);
  const spans = findPii(view, settings, names);
  const written =
    origin === undefined
      ? spans
      : // A span starts right after the character before it, so it takes an escaping backslash along.
        spans.map((span) => ({
          ...span,
          start: span.start === 0 ? 0 : origin[span.start - 1]! + 1,
          end: origin[span.end - 1]! + 1,
        }));
  return replaceSpans(text, written, { style: settings.replaceStyle, html });
}
