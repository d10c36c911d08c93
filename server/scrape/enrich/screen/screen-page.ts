import { parseHtml } from '../../../../shared/html/parse-html';
import { matchInstructions, type PatternMatch } from './instruction-patterns';
import { hasInvisible, overriddenRuns, smuggledAscii, withoutInvisible } from './invisible-characters';
import { pageTextChannels, type TextChannel, type TextSegment } from './page-text-channels';

/** One reason to think the page speaks to a model. */
export interface InjectionFinding {
  /** The rule: hidden-instruction, visible-instruction, obfuscated-instruction, smuggled-text, … */
  readonly rule: string;
  /** The instruction pattern that matched, when one did (instruction-patterns.ts). */
  readonly pattern?: string;
  readonly channel: TextChannel | 'characters';
  /** Why the text is hidden, or the attribute that holds it. */
  readonly where?: string;
  /** A short piece of the text, for the error's details and the logs. */
  readonly excerpt: string;
  /** `strong` fails the scrape on its own; `weak` needs the model's agreement. */
  readonly strength: 'strong' | 'weak';
}

export interface PageScreen {
  readonly findings: InjectionFinding[];
  /** Segments worth showing the model for a second opinion (hidden, comment, attribute text). */
  readonly concealed: TextSegment[];
  readonly visibleText: string;
}

/** A passage that talks about injection, or gives an example, quotes rather than instructs. */
const META_CONTEXT =
  /\bprompt[- ]injections?\b|\binjection\s+(?:attacks?|payloads?|attempts?|techniques?)\b|\bjailbreak(?:s|ing)?\b|\battackers?\b|\bmalicious\b|\bfor\s+example\b|\be\.g\.|\bsuch\s+as\b|\bphrases?\s+like\b|\bpayloads?\b|(?<![.@/-])\bexamples?\b(?![.-]\w)|\bred[- ]team/i;

const EXCERPT_CHARS = 160;

function excerpt(text: string, index = 0): string {
  const start = Math.max(0, index - 20);
  const piece = withoutInvisible(text.slice(start, start + EXCERPT_CHARS)).trim();
  return start + EXCERPT_CHARS < text.length ? `${piece}…` : piece;
}

/** Words that report what someone typed or said: what follows them is quoted speech. */
const REPORTED =
  /\b(?:type|types|typed|typing|write|writes|wrote|say|says|said|paste|pastes|pasted|enter|enters|entered|prompted|asked\s+it|told\s+it|phrases?\s+like|messages?\s+like)\s*:?\s*$/i;

/** Whether the match sits inside quotation marks in its passage, or is reported speech. */
function insideQuotes(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 400), index);
  if (REPORTED.test(before.slice(-40))) return true;
  const straight = (before.match(/"/g) ?? []).length;
  if (straight % 2 === 1) return true;
  const open = Math.max(before.lastIndexOf('“'), before.lastIndexOf('«'), before.lastIndexOf('„'));
  const close = Math.max(before.lastIndexOf('”'), before.lastIndexOf('»'));
  return open > close;
}

function quotes(segment: TextSegment, match: PatternMatch): boolean {
  return segment.quoted || insideQuotes(segment.text, match.index) || META_CONTEXT.test(segment.text);
}

function judgeSegment(segment: TextSegment, findings: InjectionFinding[]): void {
  const readable = withoutInvisible(segment.text);
  const matches = matchInstructions(readable);
  const where = segment.where === undefined ? {} : { where: segment.where };
  if (hasInvisible(segment.text) && matches.length > 0) {
    // The instruction only reads once the invisible characters are gone: written to slip past filters.
    const raw = new Set(matchInstructions(segment.text).map((match) => match.id));
    const hidden = matches.find((match) => !raw.has(match.id));
    if (hidden !== undefined) {
      findings.push({
        rule: 'obfuscated-instruction',
        pattern: hidden.id,
        channel: segment.channel,
        ...where,
        excerpt: excerpt(readable, hidden.index),
        strength: 'strong',
      });
      return;
    }
  }
  for (const match of matches) {
    const base = {
      pattern: match.id,
      channel: segment.channel,
      ...where,
      excerpt: excerpt(readable, match.index),
    };
    if (segment.channel === 'hidden' || segment.channel === 'comment') {
      // Nobody reading the page sees it; only a model would take it in.
      findings.push({ rule: `${segment.channel}-instruction`, ...base, strength: 'strong' });
      return;
    }
    if (quotes(segment, match)) continue;
    // alt and title text is not what a reader reads: a model named and told what to do there is certain.
    const strength =
      segment.channel === 'attribute' && match.id === 'model-directive' ? 'strong' : match.strength;
    findings.push({
      rule: segment.channel === 'attribute' ? 'attribute-instruction' : 'visible-instruction',
      ...base,
      strength,
    });
    if (strength === 'strong') return;
  }
  for (const run of overriddenRuns(segment.text)) {
    const reversed = matchInstructions(run)[0];
    if (reversed !== undefined) {
      findings.push({
        rule: 'bidi-override-instruction',
        pattern: reversed.id,
        channel: segment.channel,
        ...where,
        excerpt: excerpt(run, reversed.index),
        strength: 'strong',
      });
      return;
    }
  }
}

/**
 * The rules of prompt-injection screening over a page's HTML (or, for a document that is not
 * HTML, its text): instructions to a model in hidden text, comments, alt/title text, behind
 * invisible characters, or written plainly where no quotation or discussion frames them.
 */
export function screenPage({ html, text }: { html?: string; text?: string }): PageScreen {
  const findings: InjectionFinding[] = [];
  const segments =
    html !== undefined && html.trim() !== ''
      ? pageTextChannels(parseHtml(html))
      : (text ?? '').split(/\n{2,}/).map((passage): TextSegment => ({
          channel: 'visible',
          text: passage.trim(),
          quoted: /^\s*(?:>|```|\s{4})/.test(passage),
        }));
  for (const segment of segments) judgeSegment(segment, findings);
  for (const spelled of smuggledAscii(html ?? text ?? '')) {
    findings.push({
      rule: 'smuggled-text',
      channel: 'characters',
      excerpt: spelled.slice(0, EXCERPT_CHARS),
      strength: 'strong',
    });
  }
  const concealed = segments.filter((segment) => segment.channel !== 'visible').slice(0, 200);
  const visibleText = segments
    .filter((segment) => segment.channel === 'visible')
    .map((segment) => segment.text)
    .join('\n');
  return { findings, concealed, visibleText };
}

/** Whether the rules alone find an injection. */
export function rulesDetect(screen: PageScreen): boolean {
  return screen.findings.some((finding) => finding.strength === 'strong');
}
