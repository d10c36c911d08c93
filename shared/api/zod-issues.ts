import type { z } from 'zod';

/** One entry of `details` in a 400 body: a zod issue as plain JSON. */
export interface IssueDetail {
  code: string;
  message: string;
  path: (string | number)[];
  [key: string]: unknown;
}

/**
 * The `details` array of the validation-error body (docs/wire-contract.md §1.6): zod issues as plain JSON,
 * e.g. `{ code: 'custom', message: 'waitFor must not exceed half of timeout', path: ['waitFor'] }`.
 * `input` is dropped (it may echo a huge or secret value back), as is anything that is not JSON
 * (functions, schema instances); bigints and symbols become strings. Nested issues (`errors` of a
 * union, `issues` of a record key or map entry) are converted the same way.
 */
export function toIssueDetails(error: z.ZodError): IssueDetail[] {
  return error.issues.map(toIssueDetail);
}

function toIssueDetail(issue: z.core.$ZodIssue): IssueDetail {
  const detail: IssueDetail = {
    code: issue.code,
    message: issue.message,
    path: (issue.path ?? []).map((key) => (typeof key === 'symbol' ? key.toString() : key)),
  };
  for (const [key, value] of Object.entries(issue)) {
    if (key in detail || key === 'input') continue;
    if (key === 'errors' && Array.isArray(value)) {
      detail.errors = (value as z.core.$ZodIssue[][]).map((branch) => branch.map(toIssueDetail));
    } else if (key === 'issues' && Array.isArray(value)) {
      detail.issues = (value as z.core.$ZodIssue[]).map(toIssueDetail);
    } else {
      const json = toJson(value);
      if (json !== undefined) detail[key] = json;
    }
  }
  return detail;
}

function toJson(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return value;
    case 'bigint':
    case 'symbol':
      return value.toString();
    case 'object':
      if (value === null) return null;
      if (Array.isArray(value)) return value.map((item) => toJson(item) ?? null);
      if (value instanceof RegExp) return value.source;
      if (Object.getPrototypeOf(value) !== Object.prototype) return undefined;
      return Object.fromEntries(
        Object.entries(value).flatMap(([key, item]) => {
          const json = toJson(item);
          return json === undefined ? [] : [[key, json]];
        }),
      );
    default:
      return undefined;
  }
}
