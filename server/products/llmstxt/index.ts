/** llms.txt: a site's pages summarised into an llms.txt file. */
export { createLlmsTxtService } from './create-llms-txt-service';
export type { LlmsTxtService } from './create-llms-txt-service';
