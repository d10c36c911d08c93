/**
 * Why an uploaded document cannot be converted, as the converter (which runs in a worker thread
 * and knows nothing of HTTP) reports it: `broken` (truncated, corrupt, malformed), `archive-limit`
 * (its zip unpacks beyond a limit) or `unsupported` (readable, but of a kind not converted).
 */
export type ProblemKind = 'broken' | 'archive-limit' | 'unsupported';

export class DocumentProblem extends Error {
  readonly kind: ProblemKind;

  constructor(kind: ProblemKind, message: string) {
    super(message);
    this.name = 'DocumentProblem';
    this.kind = kind;
  }
}
