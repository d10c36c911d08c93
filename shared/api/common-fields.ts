import { z } from 'zod';

/** Values of `integration` that SDKs and no-code platforms send (docs/wire-contract.md §1.3); others are a 400. */
export const Integration = z.enum([
  'dify',
  'zapier',
  'pipedream',
  'raycast',
  'langchain',
  'crewai',
  'llamaindex',
  'n8n',
  'camelai',
  'make',
  'flowise',
  'metagpt',
  'relevanceai',
]);
export type Integration = z.infer<typeof Integration>;

/**
 * Fields that clients add to POST bodies besides the endpoint's own (docs/wire-contract.md §1.3). Every SDK
 * sends `origin` (`js-sdk@4.42.0`, …), so strict bodies must allow it; absent means `"api"`.
 * `zeroDataRetention` exists on scrape, batch scrape and crawl only: map and search leave it out.
 */
export const commonFields = {
  origin: z.string().optional(),
  integration: Integration.optional(),
  zeroDataRetention: z.boolean().optional(),
};
