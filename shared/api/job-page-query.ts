import { z } from 'zod';
import { queryCount } from './query-count';

/** `?skip=&limit=` on a crawl or batch status (docs/wire-contract.md §7.4): which slice of `data` to answer. */
export const JobPageQuery = z.object({
  skip: queryCount(0).default(0),
  limit: queryCount(1).optional(),
});
