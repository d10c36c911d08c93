/** Extract: structured data from one or many pages, by a model within a schema. */
export { createExtractService } from './create-extract-service';
export type { ExtractService } from './create-extract-service';
