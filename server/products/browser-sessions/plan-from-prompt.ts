import { z } from 'zod';
import { Actions } from '../../../shared/api/v2/actions';
import { completeJson, LlmError, MAX_PROMPT_CONTENT_CHARS, type LlmProvider } from '../../platform/llm';

const SYSTEM_PROMPT =
  'You operate one browser tab for a user. You see the page the tab shows (its URL, title and ' +
  'HTML) and the user\'s task. Answer with a single JSON object: {"actions": [...], "code": "...", ' +
  '"answer": "..."}. "actions" are browser actions run in order: {"type":"click","selector":"css"}, ' +
  '{"type":"write","text":"..."} (types into the focused element: click the field first), ' +
  '{"type":"press","key":"Enter"}, {"type":"scroll","direction":"down"}, ' +
  '{"type":"wait","milliseconds":500} or {"type":"wait","selector":"css"}. "code" is optional ' +
  'JavaScript run in the page after the actions; the value of its last expression is returned to ' +
  'the user (use it to read what the task asks for). "answer" says in one or two sentences what ' +
  'you did or found. Use selectors that exist in the HTML you see.';

/** What the model proposes for a prompt: actions, then code, and its own account of them. */
export const SessionPlan = z.object({
  actions: Actions.default([]),
  code: z.string().max(100_000).optional(),
  answer: z.string().max(10_000).default(''),
});
export type SessionPlan = z.infer<typeof SessionPlan>;

/** Page HTML for the model: scripts, styles and comments say nothing about what to click. */
function pageForModel(html: string): string {
  return html
    .replace(/<script\b[\s\S]*?<\/script>/gi, '')
    .replace(/<style\b[\s\S]*?<\/style>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/\s+/g, ' ')
    .slice(0, MAX_PROMPT_CONTENT_CHARS);
}

/**
 * Asks the model (LLM_BASE_URL) how to do `prompt` on the page the session shows: one plan of
 * actions and code, checked against the action schema (one retry when it is not valid).
 */
export async function planFromPrompt(
  llm: LlmProvider,
  { prompt, page }: { prompt: string; page: { url: string; title: string; html: string } },
): Promise<SessionPlan> {
  const task = [
    `Task: ${prompt}`,
    `URL: ${page.url}`,
    `Title: ${page.title}`,
    `HTML:\n${pageForModel(page.html)}`,
  ].join('\n\n');
  const conversation = [
    { role: 'system' as const, content: SYSTEM_PROMPT },
    { role: 'user' as const, content: task },
  ];
  let answer = await completeJson(llm, conversation, undefined);
  let plan = SessionPlan.safeParse(answer);
  if (!plan.success) {
    answer = await completeJson(
      llm,
      [
        ...conversation,
        { role: 'assistant', content: JSON.stringify(answer) },
        {
          role: 'user',
          content: `That plan is not valid: ${z.prettifyError(plan.error)}. Answer again with a corrected JSON object only.`,
        },
      ],
      undefined,
    );
    plan = SessionPlan.safeParse(answer);
  }
  if (!plan.success) throw new LlmError(`the model's plan was not valid: ${z.prettifyError(plan.error)}`);
  return plan.data;
}
