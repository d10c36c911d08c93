import { z } from 'zod';

/**
 * A whole number written in a query string. `z.coerce.number()` alone would read `?skip=` as 0 and
 * `?skip=0x10` as 16; anything but decimal digits becomes NaN here, which the number schema refuses.
 */
const queryCount = (min: number) =>
  z.preprocess(
    (value) => (typeof value === 'string' && !/^\d+$/.test(value) ? Number.NaN : value),
    z.coerce.number().int().min(min),
  );

/** `?skip=&limit=` on a crawl or batch status (docs/wire-contract.md §7.4): which slice of `data` to answer. */
export const JobPageQuery = z.object({
  skip: queryCount(0).default(0),
  limit: queryCount(1).optional(),
});
