import { z } from 'zod';

/** `?skip=&limit=` on a crawl or batch status (contract §7.4): which slice of `data` to answer. */
export const JobPageQuery = z.object({
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().positive().optional(),
});
