import { describe, expect, it } from 'vitest';
import { compatPython, pythonRequired } from '../helpers/compat-python';
import { runApiFuzz } from './fuzz/run-api-fuzz';

/**
 * A bounded schemathesis run against a whole Tabhive and its /openapi.json (the long run is
 * `npm run fuzz`): no unexpected 5xx, responses that match the document, 4xx for data it refuses.
 */
describe.skipIf(compatPython() === undefined && !pythonRequired)('API fuzzing with schemathesis', () => {
  it(
    'finds no server error and no response that breaks the OpenAPI document',
    { timeout: 240_000 },
    async () => {
      // A fixed seed keeps CI reproducible; `npm run fuzz` explores with fresh ones.
      const { code, output } = await runApiFuzz({ maxTimeSeconds: 60, maxExamples: 10, seed: 20261121 });
      expect(code, output).toBe(0);
    },
  );
});
