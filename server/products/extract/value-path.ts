/** Where a value sits in extracted data: object keys and array indexes from the root. */
export type ValuePath = ReadonlyArray<string | number>;

/** An index that stands for every item of an array (`products[].price`). */
export const ANY_INDEX = -1;

const PLAIN_KEY = /^[A-Za-z_$][\w$]*$/;

/**
 * A path as `sources` and warnings name it: `company.name`, `products[0].price`, `["a.b"]` for a
 * key that is not a plain name, `products[].price` for the field of every item.
 */
export function formatPath(path: ValuePath): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += segment === ANY_INDEX ? '[]' : `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

/** The path with every array index replaced by ANY_INDEX: the same field of any item. */
export const itemAgnostic = (path: ValuePath): ValuePath =>
  path.map((segment) => (typeof segment === 'number' ? ANY_INDEX : segment));
