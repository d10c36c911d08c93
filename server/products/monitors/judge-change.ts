import { z } from 'zod';
import { completeJson, type LlmProvider, MAX_PROMPT_CONTENT_CHARS } from '../../platform/llm';

/** What the model says about one changed page (Firecrawl's MonitorPageJudgment). */
export const PageJudgment = z.object({
  meaningful: z.boolean(),
  confidence: z.enum(['high', 'medium', 'low']).catch('low'),
  reason: z.string(),
  meaningfulChanges: z
    .array(
      z.object({
        type: z.enum(['added', 'removed', 'changed']),
        before: z.string().nullable().catch(null),
        after: z.string().nullable().catch(null),
        reason: z.string().catch(''),
      }),
    )
    .catch([]),
});
export type PageJudgment = z.infer<typeof PageJudgment>;

const SYSTEM_PROMPT =
  'You watch web pages for someone with a goal. Given the goal and the change of one page as a diff, ' +
  'decide whether the change matters for the goal. Answer with a single JSON object only: ' +
  '{"meaningful": boolean, "confidence": "high"|"medium"|"low", "reason": string, ' +
  '"meaningfulChanges": [{"type": "added"|"removed"|"changed", "before": string|null, "after": string|null, "reason": string}]}. ' +
  'Changes of layout, dates of rendering, counters and ads do not matter unless the goal says so.';

/**
 * Whether a page's change matters to the monitor's goal, as the model judges it. Throws when the
 * model fails or answers twice in a shape that is not a judgment.
 */
export async function judgeChange(
  llm: LlmProvider,
  { goal, url, diff }: { goal: string; url: string; diff: string },
): Promise<PageJudgment> {
  const answer = await completeJson(
    llm,
    [
      { role: 'system', content: SYSTEM_PROMPT },
      {
        role: 'user',
        content: `Goal: ${goal}\n\nPage: ${url}\n\nChange (unified diff of the page's Markdown):\n${diff.slice(0, MAX_PROMPT_CONTENT_CHARS)}`,
      },
    ],
    undefined,
  );
  return PageJudgment.parse(answer);
}
