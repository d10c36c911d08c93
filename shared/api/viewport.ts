import { z } from 'zod';

/** Screenshot viewport in CSS pixels; the bounds are Firecrawl's (an 8K display). Extra keys are dropped. */
export const Viewport = z.object({
  width: z.int().min(1).max(7680),
  height: z.int().min(1).max(4320),
});
export type Viewport = z.infer<typeof Viewport>;
