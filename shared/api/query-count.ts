import { z } from 'zod';

/**
 * A whole number written in a query string, from `min` to `max`. `z.coerce.number()` alone would
 * read `?skip=` as 0 and `?skip=0x10` as 16; anything but decimal digits becomes NaN here, which
 * the number schema refuses with a 400.
 */
export const queryCount = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess(
    (value) => (typeof value === 'string' && !/^\d+$/.test(value) ? Number.NaN : value),
    z.coerce.number().int().min(min).max(max),
  );
