import type { ScrapeRequestV2 } from '../../../../shared/api/v2/scrape-request';
import type { PageCapture } from '../../../../shared/protocol/messages';
import { TabhiveError } from '../../../platform/errors';
import { LlmError, type LlmProvider } from '../../../platform/llm';
import type { Log } from '../../../platform/log';
import { askModelToScreen } from './ask-model-to-screen';
import { type InjectionFinding, rulesDetect, screenPage } from './screen-page';

/** The wire code of a scrape stopped by the screen (Firecrawl's). */
export const PROMPT_INJECTION_CODE = 'SCRAPE_PROMPT_INJECTION_DETECTED';
/** Findings named in the error's details; the rest are counted. */
const MAX_REPORTED_FINDINGS = 10;

export function promptInjectionDetected(findings: readonly InjectionFinding[]): TabhiveError {
  const first = findings[0];
  const where =
    first === undefined
      ? ''
      : ` (${first.rule}${first.where === undefined ? '' : ` in ${first.where}`}: "${first.excerpt}")`;
  return new TabhiveError(
    'unprocessable',
    `The page contains text aimed at instructing a language model${where}; the scrape was stopped before any model read it. ` +
      'Scrape without checkPromptInjection to get the page anyway.',
    {
      code: PROMPT_INJECTION_CODE,
      details: {
        findings: findings.slice(0, MAX_REPORTED_FINDINGS),
        ...(findings.length > MAX_REPORTED_FINDINGS
          ? { moreFindings: findings.length - MAX_REPORTED_FINDINGS }
          : {}),
      },
    },
  );
}

/**
 * Screens the page for prompt injection before any model format reads it
 * (docs/llm-formats.md#prompt-injection-screening): the rules first (screen-page.ts), which fail
 * the scrape on a certain finding; then, when a model is configured and may see the page, its
 * second opinion. Throws the SCRAPE_PROMPT_INJECTION_DETECTED error; otherwise returns warnings
 * (doubtful passages with no model to judge them, a model that could not answer).
 */
export async function screenForInjection(
  { llm, log }: { llm?: LlmProvider | undefined; log: Log },
  { request, capture, markdown }: { request: ScrapeRequestV2; capture: PageCapture; markdown: string },
): Promise<string[]> {
  const html =
    capture.pdfBase64 === undefined && /html|xml/i.test(capture.contentType ?? 'text/html')
      ? capture.rawHtml
      : undefined;
  const screen = screenPage(html === undefined ? { text: markdown } : { html });
  if (rulesDetect(screen)) {
    log.info('prompt injection found by the screen rules', {
      url: capture.url,
      findings: screen.findings.length,
    });
    throw promptInjectionDetected(screen.findings.filter((finding) => finding.strength === 'strong'));
  }
  const doubtful = screen.findings.length;
  const model = request.zeroDataRetention === true ? undefined : llm;
  if (model === undefined) {
    return doubtful === 0
      ? []
      : [
          `The prompt-injection screen found ${doubtful} doubtful passage(s) (first: "${screen.findings[0]?.excerpt ?? ''}") ` +
            'but no model was available to judge them; the scrape went on.',
        ];
  }
  try {
    const verdict = await askModelToScreen(model, screen);
    if (verdict?.injection === true) {
      throw promptInjectionDetected([
        {
          rule: 'model-judgment',
          channel: 'visible',
          excerpt: (verdict.reason ?? 'the model judged the page to contain a prompt injection').slice(
            0,
            300,
          ),
          strength: 'strong',
        },
        ...screen.findings,
      ]);
    }
    return verdict === undefined
      ? [
          'The model gave no usable prompt-injection verdict; the screen relied on its rules, which found none.',
        ]
      : [];
  } catch (err) {
    if (!(err instanceof LlmError)) throw err;
    log.warn('prompt injection screen: the model failed', { url: capture.url, error: err.message });
    return [`The model could not screen the page (${err.message}); the screen's rules found no injection.`];
  }
}
