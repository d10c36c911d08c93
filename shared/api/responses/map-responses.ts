import { z } from 'zod';

/** `POST /v2/map` (docs/wire-contract.md §12.2): objects, title and description when known. */
export const MapResponseV2 = z.object({
  success: z.literal(true),
  links: z.array(
    z.object({ url: z.string(), title: z.string().optional(), description: z.string().optional() }),
  ),
});

/** `POST /v1/map` (docs/wire-contract.md §11.4): plain URL strings, the input URL first. */
export const MapResponseV1 = z.object({ success: z.literal(true), links: z.array(z.string()) });
