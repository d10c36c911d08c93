import { z } from 'zod';
import { commonFields } from '../common-fields';
import { strictBody } from '../strict-body';
import { mapFieldsShape } from '../v2/map-request';

/**
 * Body of `POST /v1/map` (docs/wire-contract.md §11.4): the v2 map fields under v1 names for the sitemap
 * (`ignoreSitemap`, `sitemapOnly`), and the v1 crawler options, which are accepted and ignored.
 */
export const MapRequestV1 = strictBody(
  {
    ...commonFields,
    ...mapFieldsShape,
    ignoreSitemap: z.boolean().default(false),
    sitemapOnly: z.boolean().default(false),
    maxDepth: z.int().min(0).optional(),
    allowBackwardLinks: z.boolean().optional(),
    maxConcurrency: z.int().positive().optional(),
  },
  'v1',
);
export type MapRequestV1 = z.infer<typeof MapRequestV1>;
