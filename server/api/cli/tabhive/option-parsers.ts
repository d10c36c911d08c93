import { InvalidArgumentError } from 'commander';

/** Commander argument parsers: a bad value is a usage error that names the option's rule. */

export function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value)))
    throw new InvalidArgumentError('expected a whole number of at least 1');
  return Number(value);
}

export function nonNegativeInteger(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new InvalidArgumentError('expected a whole number');
  return Number(value);
}

/** `--formats markdown,links` and repeated `--formats a --formats b` both give `[a, b, …]`. */
export function commaList(value: string, previous: string[] | undefined): string[] {
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (items.length === 0) throw new InvalidArgumentError('expected a comma-separated list');
  return [...(previous ?? []), ...items];
}

/** A repeatable option whose values may contain commas (regular expressions): one value each time. */
export function repeatable(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
