import type { PageOutcome } from './extract-from-page';

/** Pages named per warning at most; the count says how many there were. */
const MAX_NAMED = 10;

function listed<T extends PageOutcome>(outcomes: readonly T[], describe: (outcome: T) => string): string {
  const named = outcomes.slice(0, MAX_NAMED).map(describe).join('; ');
  return outcomes.length > MAX_NAMED ? `${named}; and ${outcomes.length - MAX_NAMED} more` : named;
}

const of = <K extends PageOutcome['kind']>(outcomes: readonly PageOutcome[], kind: K) =>
  outcomes.filter((outcome): outcome is Extract<PageOutcome, { kind: K }> => outcome.kind === kind);

/** What the job's warning says about pages that gave no data: failed, error pages, not started. */
export function pageWarnings(outcomes: readonly PageOutcome[]): string[] {
  const warnings: string[] = [];
  const failed = of(outcomes, 'failed');
  if (failed.length > 0) {
    warnings.push(
      `${failed.length} page(s) could not be read and were left out: ${listed(failed, (o) => `${o.url} (${o.reason})`)}.`,
    );
  }
  const errorPages = of(outcomes, 'error-status');
  if (errorPages.length > 0) {
    warnings.push(
      `${errorPages.length} page(s) answered with an error status and were not extracted from: ${listed(errorPages, (o) => `${o.url} (${o.status})`)}.`,
    );
  }
  const unpaid = of(outcomes, 'no-credits');
  if (unpaid.length > 0) {
    warnings.push(
      `The team's credits ran out; ${unpaid.length} page(s) were not read: ${listed(unpaid, (o) => o.url)}.`,
    );
  }
  const skipped = of(outcomes, 'skipped');
  if (skipped.length > 0) {
    warnings.push(
      `The extract ran out of time; ${skipped.length} page(s) were not read: ${listed(skipped, (o) => o.url)}.`,
    );
  }
  return warnings;
}
