import type { IssueDetail } from './zod-issues';

/** Issues worded at most; the rest are counted (every one stays in `details`). */
const MAX_ISSUES = 3;
/** Nested unions are followed this deep, no deeper: a hostile body must not make the wording costly. */
const MAX_DEPTH = 6;
/** Path keys, echoed values and the whole text are cut to these lengths. */
const MAX_KEY_LENGTH = 40;
const MAX_VALUE_LENGTH = 40;
const MAX_TEXT_LENGTH = 600;
/** Allowed values listed when none is close to what was sent. */
const MAX_LISTED_VALUES = 20;

/**
 * The validation issues of a 400 as one short sentence a person can act on, such as
 * `formats[0]: 'markdwn' is not a format; did you mean 'markdown'?` or `timeout: must be at most
 * 300000`. The issues themselves stay in `details`, unchanged, for programs (docs/wire-contract.md
 * §1.6); this is the `error` text's tail. `input` is the body as sent: with it, a value that is not
 * one of the allowed ones is quoted (when it is a short string or a number) and the closest allowed
 * value suggested. Never throws, whatever the issues hold.
 */
export function describeIssues(issues: readonly IssueDetail[], input?: unknown): string {
  try {
    const sentences = issues.slice(0, MAX_ISSUES).map((issue) => describe(issue, [], input, 0));
    const more = issues.length - MAX_ISSUES;
    const text = sentences.join('; ') + (more > 0 ? ` (and ${more} more in details)` : '');
    return text.length > MAX_TEXT_LENGTH ? `${text.slice(0, MAX_TEXT_LENGTH - 1)}…` : text;
  } catch {
    // A malformed issue list (not zod's) is worded by nobody; `details` still has it.
    return '';
  }
}

type Path = ReadonlyArray<string | number>;

function describe(issue: IssueDetail, prefix: Path, input: unknown, depth: number): string {
  const path = [...prefix, ...(Array.isArray(issue.path) ? issue.path : [])];
  if (issue.code === 'invalid_union' && depth < MAX_DEPTH) {
    const discriminator = typeof issue.discriminator === 'string' ? issue.discriminator : undefined;
    if (discriminator !== undefined && path.at(-1) === discriminator) {
      // `formats[0]`, not `formats[0].type`: the shorthand `"markdwn"` has no `type` to point at.
      const at = path.slice(0, -1);
      const sent = valueAt(input, at);
      const options = stringsOf(issue.options);
      if (isRecord(sent) && !Object.hasOwn(sent, discriminator)) {
        return located(path, `is required; expected one of ${listOf(options)}`);
      }
      return located(at, notOneOf(at, isRecord(sent) ? sent[discriminator] : sent, options));
    }
    const branch = likeliestBranch(issue.errors);
    if (branch !== undefined) return describeBranch(branch, path, input, depth);
  }
  return located(path, problemOf(issue, path, input));
}

/** `formats[0].type: problem`; for the body itself, `the body must …`, or the problem alone. */
function located(path: Path, problem: string): string {
  const where = formatPath(path);
  if (where !== '') return `${where}: ${problem}`;
  return /^(must|is) /.test(problem) ? `the body ${problem}` : problem;
}

/**
 * A union the value matched no alternative of: all of them failing on the value's type (`must be
 * a string or an object`), all failing on its value (their allowed values together), or else the
 * alternative the value came closest to.
 */
function describeBranch(branch: Branch, path: Path, input: unknown, depth: number): string {
  if (branch.kind === 'types') {
    const expected = branch.expected.map((type) => withArticle(typeNameOf(type))).join(' or ');
    return located(path, `must be ${expected}${receivedOf(branch.message, valueAt(input, path))}`);
  }
  if (branch.kind === 'values') return located(path, notOneOf(path, valueAt(input, path), branch.values));
  const [first] = branch.issues;
  if (first === undefined) return located(path, 'is not valid');
  return describe(first, path, input, depth + 1);
}

type Branch =
  | { kind: 'types'; expected: string[]; message: string }
  | { kind: 'values'; values: string[] }
  | { kind: 'closest'; issues: IssueDetail[] };

function likeliestBranch(errors: unknown): Branch | undefined {
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const branches = errors.filter((branch): branch is IssueDetail[] => Array.isArray(branch));
  const atRoot = (issue: IssueDetail) => Array.isArray(issue.path) && issue.path.length === 0;
  const single =
    branches.length > 0 &&
    branches.every((branch) => branch.length === 1 && atRoot(branch[0] as IssueDetail));
  if (single) {
    const issues = branches.map((branch) => branch[0] as IssueDetail);
    if (issues.every((issue) => issue.code === 'invalid_type')) {
      const expected = [...new Set(issues.map((issue) => String(issue.expected)))];
      return { kind: 'types', expected, message: String(issues[0]?.message ?? '') };
    }
    if (issues.every((issue) => issue.code === 'invalid_value')) {
      return { kind: 'values', values: [...new Set(issues.flatMap((issue) => stringsOf(issue.values)))] };
    }
  }
  // The alternative the value's shape matched best: fewest type mismatches, then the deepest.
  const score = (branch: IssueDetail[]) => {
    const mismatches = branch.filter((issue) => issue.code === 'invalid_type').length;
    const deepest = Math.max(
      0,
      ...branch.map((issue) => (Array.isArray(issue.path) ? issue.path.length : 0)),
    );
    return mismatches * 1000 - deepest;
  };
  let best: IssueDetail[] | undefined;
  for (const branch of branches) if (best === undefined || score(branch) < score(best)) best = branch;
  return best === undefined ? undefined : { kind: 'closest', issues: best };
}

/** What is wrong with the value at `path`, without the path. */
function problemOf(issue: IssueDetail, path: Path, input: unknown): string {
  const message = typeof issue.message === 'string' ? issue.message : '';
  switch (issue.code) {
    case 'invalid_type': {
      if (!isZodWording(message)) return ownWords(message, path);
      if (/received undefined$/.test(message)) return 'is required';
      return `must be ${withArticle(typeNameOf(issue.expected))}${receivedOf(message, valueAt(input, path))}`;
    }
    case 'too_big':
    case 'too_small':
      return isZodWording(message) ? sizeLimit(issue) : ownWords(message, path);
    case 'invalid_value':
      return isZodWording(message)
        ? notOneOf(path, valueAt(input, path), stringsOf(issue.values))
        : ownWords(message, path);
    case 'unrecognized_keys': {
      const keys = stringsOf(issue.keys);
      const listed = keys.slice(0, MAX_ISSUES).map(quote).join(', ');
      return keys.length === 0
        ? ownWords(message, path)
        : `unrecognized key${keys.length === 1 ? '' : 's'} ${listed}${keys.length > MAX_ISSUES ? ', …' : ''}`;
    }
    case 'invalid_format':
      return isZodWording(message) ? formatRule(issue) : ownWords(message, path);
    case 'not_multiple_of':
      return isZodWording(message)
        ? `must be a multiple of ${String(issue.divisor)}`
        : ownWords(message, path);
    default:
      return ownWords(message, path);
  }
}

/** Zod's own wording ("Invalid input: expected …", "Too big: …"), as opposed to a schema's message. */
const isZodWording = (message: string) => /^(Invalid |Too (big|small)|Unrecognized key)/.test(message);

/** Messages of our schemas that read better said another way after a path. */
const REWORDED: Record<string, string> = {
  'Invalid url': 'must be a URL',
  'Invalid URL': 'must be a URL',
  'URL uses unsupported protocol': 'must be an http:// or https:// URL',
};

/**
 * A schema's own message after its path: `waitFor must not exceed half of timeout` at `waitFor`
 * reads `must not exceed half of timeout`, so the path is not said twice.
 */
function ownWords(message: string, path: Path): string {
  const reworded = REWORDED[message];
  if (reworded !== undefined) return reworded;
  const key = [...path].reverse().find((part): part is string => typeof part === 'string');
  if (key !== undefined && message.toLowerCase().startsWith(`${key.toLowerCase()} `)) {
    return message.slice(key.length + 1);
  }
  return message === '' ? 'is not valid' : message;
}

function sizeLimit(issue: IssueDetail): string {
  const big = issue.code === 'too_big';
  const limit = String(big ? issue.maximum : issue.minimum);
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case 'string':
      if (!big && limit === '1') return 'must not be empty';
      return `must be ${big ? 'at most' : 'at least'} ${limit} characters`;
    case 'array':
    case 'set':
      if (!big && limit === '1') return 'must not be empty';
      return `must have ${big ? 'at most' : 'at least'} ${limit} items`;
    default:
      if (inclusive) return `must be ${big ? 'at most' : 'at least'} ${limit}`;
      return `must be ${big ? 'less' : 'greater'} than ${limit}`;
  }
}

function formatRule(issue: IssueDetail): string {
  const format = String(issue.format);
  switch (format) {
    case 'url':
      return 'must be a URL';
    case 'email':
      return 'must be an email address';
    case 'uuid':
    case 'guid':
      return 'must be a UUID';
    case 'datetime':
      return 'must be an ISO 8601 date and time';
    case 'starts_with':
      return `must start with ${quote(String(issue.prefix))}`;
    case 'ends_with':
      return `must end with ${quote(String(issue.suffix))}`;
    case 'includes':
      return `must contain ${quote(String(issue.includes))}`;
    case 'regex':
      return 'does not have the expected form';
    default:
      return `must be a valid ${format}`;
  }
}

/**
 * `'markdwn' is not a format; did you mean 'markdown'?` — the value quoted when it can be, the
 * thing named after the path (`formats[0]` holds a format, `proxy` a proxy), and the closest
 * allowed value suggested, or else the allowed values listed.
 */
function notOneOf(path: Path, sent: unknown, allowed: readonly string[]): string {
  const shown = typeof sent === 'string' || typeof sent === 'number' ? quote(String(sent)) : undefined;
  const suggestion = typeof sent === 'string' ? closest(sent, allowed) : undefined;
  const noun = nounOf(path);
  const head =
    shown === undefined
      ? 'is not one of the allowed values'
      : noun === undefined
        ? `${shown} is not allowed`
        : `${shown} is not ${noun}`;
  if (suggestion !== undefined) return `${head}; did you mean ${quote(suggestion)}?`;
  return allowed.length === 0 ? head : `${head}; expected one of ${listOf(allowed)}`;
}

const listOf = (values: readonly string[]) =>
  values.slice(0, MAX_LISTED_VALUES).join(', ') + (values.length > MAX_LISTED_VALUES ? ', …' : '');

/** `a format` for an item of `formats`, `a valid proxy` for `proxy`; undefined for the body. */
function nounOf(path: Path): string | undefined {
  const last = path.at(-1);
  const before = path.at(-2);
  if (typeof last === 'number' && typeof before === 'string' && /[a-z]s$/i.test(before)) {
    return withArticle(before.slice(0, -1));
  }
  if (typeof last === 'string') return `a valid ${truncate(last, MAX_KEY_LENGTH)}`;
  return undefined;
}

/** The allowed value nearest to what was sent, when it is near enough to be a slip. */
function closest(sent: string, allowed: readonly string[]): string | undefined {
  const typed = sent.toLowerCase();
  if (typed.length === 0 || typed.length > 64) return undefined;
  const reach = Math.min(3, Math.max(1, Math.floor(typed.length / 3)));
  let best: string | undefined;
  let bestDistance = reach + 1;
  for (const option of allowed) {
    const distance = editDistance(typed, option.toLowerCase(), bestDistance);
    if (distance < bestDistance) [best, bestDistance] = [option, distance];
  }
  return best;
}

/**
 * Edits from `a` to `b` (insert, delete, replace, or swap two neighbours: `htlm` is one from
 * `html`), at most `cap`. The words are short (64 characters at most), so every cell is computed.
 */
function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (before[j - 2] as number) + 1);
      }
      row[j] = best;
    }
    [before, previous] = [previous, row];
  }
  return Math.min(cap, previous[b.length] as number);
}

/** `, not a string` from zod's `received string`, or from the value sent. */
function receivedOf(message: string, sent: unknown): string {
  const received = /received (\w+)$/.exec(message)?.[1] ?? (sent === undefined ? undefined : typeName(sent));
  return received === undefined || received === 'undefined' ? '' : `, not ${withArticle(received)}`;
}

/** Zod's names of expected types, as a reader says them. */
const typeNameOf = (expected: unknown) => (expected === 'int' ? 'integer' : String(expected));

const typeName = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

const withArticle = (noun: string) =>
  noun === 'null' || noun === 'undefined' ? noun : `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;

/** The sent value at a path of the body, own properties only (a key such as `__proto__` reads nothing). */
function valueAt(input: unknown, path: Path): unknown {
  let value = input;
  for (const key of path) {
    if (Array.isArray(value) && typeof key === 'number') value = value[key];
    else if (isRecord(value) && typeof key === 'string' && Object.hasOwn(value, key)) value = value[key];
    else return undefined;
  }
  return value;
}

/** `formats[0].type`, `headers["x-key"]`; long keys cut short, as they come from the body. */
function formatPath(path: Path): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (/^[A-Za-z_$][\w$@]*$/.test(key) && key.length <= MAX_KEY_LENGTH)
      text += text === '' ? key : `.${key}`;
    else text += `[${JSON.stringify(truncate(key, MAX_KEY_LENGTH))}]`;
  }
  return text;
}

/** A value in single quotes, cut short, with control characters escaped. */
const quote = (value: string) => `'${JSON.stringify(truncate(value, MAX_VALUE_LENGTH)).slice(1, -1)}'`;

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const stringsOf = (values: unknown): string[] =>
  Array.isArray(values) ? values.filter((value): value is string => typeof value === 'string') : [];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
