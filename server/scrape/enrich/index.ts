/** Enrich: formats that read the Markdown or ask a model, read formats, warnings and redaction. */
export { enrichPage } from './enrich-page';
export type { EnrichPlan } from './enrich-page';
export { compareJson } from './formats/change-tracking-format';
export type { ChangeTracking } from './formats/change-tracking-format';
export { splitSentences } from './formats/extractive-summary';
export { gitDiff } from './formats/git-diff';
export { requestSchemas } from './formats/request-schemas';
export { redactText } from './redact/redact-text';
