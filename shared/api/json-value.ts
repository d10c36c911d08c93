import { z } from 'zod';

/**
 * Any JSON value: the user's JSON Schemas (json and changeTracking formats). One shared instance,
 * so the OpenAPI document can name this recursive schema once instead of repeating it.
 */
export const JsonValue = z.json();
