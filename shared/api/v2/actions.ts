import { z } from 'zod';
import { Viewport } from '../viewport';

export const MAX_ACTIONS = 50;
/** What a `wait` with a selector counts for in the wait budget (docs/wire-contract.md §3.1). */
export const SELECTOR_WAIT_BUDGET_MS = 1000;

const WaitAction = z
  .object({
    type: z.literal('wait'),
    milliseconds: z.int().positive().optional(),
    selector: z.string().optional(),
  })
  .refine((action) => (action.milliseconds === undefined) !== (action.selector === undefined), {
    error: "Either 'milliseconds' or 'selector' must be provided, but not both.",
  });

/**
 * One browser action of v2 `actions[]` (docs/wire-contract.md §3.2), run in order in the tab. Unknown keys
 * are dropped, as Firecrawl does.
 */
export const Action = z.discriminatedUnion('type', [
  WaitAction,
  z.object({
    type: z.literal('click'),
    selector: z.string(),
    /** Click every match instead of the first. */
    all: z.boolean().default(false),
  }),
  /** Types into the focused element. */
  z.object({ type: z.literal('write'), text: z.string() }),
  z.object({ type: z.literal('press'), key: z.string() }),
  z.object({
    type: z.literal('scroll'),
    direction: z.enum(['up', 'down']).default('down'),
    /** Scroll inside this element instead of the page. */
    selector: z.string().optional(),
  }),
  z.object({
    type: z.literal('screenshot'),
    fullPage: z.boolean().default(false),
    quality: z.int().min(1).max(100).optional(),
    viewport: Viewport.optional(),
  }),
  z.object({ type: z.literal('scrape') }),
  z.object({ type: z.literal('executeJavascript'), script: z.string() }),
  z.object({
    type: z.literal('pdf'),
    format: z
      .enum(['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'Letter', 'Legal', 'Tabloid', 'Ledger'])
      .default('Letter'),
    landscape: z.boolean().default(false),
    // Chromium's Page.printToPDF refuses a scale outside 0.1–2; better a 400 than a failed page.
    scale: z.number().min(0.1).max(2).default(1),
  }),
]);
export type Action = z.infer<typeof Action>;

export const Actions = z
  .array(Action)
  .max(MAX_ACTIONS, { error: `Number of actions cannot exceed ${MAX_ACTIONS}` });
export type Actions = z.infer<typeof Actions>;

/**
 * Milliseconds the actions spend waiting, as the wait budget counts them: each `wait` its
 * `milliseconds`, or SELECTOR_WAIT_BUDGET_MS when it waits for a selector.
 */
export function actionWaitMs(actions: readonly Action[]): number {
  let total = 0;
  for (const action of actions) {
    if (action.type === 'wait') total += action.milliseconds ?? SELECTOR_WAIT_BUDGET_MS;
  }
  return total;
}
