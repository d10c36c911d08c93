// Fuzzes the HTTP API with schemathesis against the OpenAPI document a running Tabhive serves:
//
//   npm run fuzz                          # a long run: 10 minutes, 100 cases per operation
//   npm run fuzz -- --max-time 60 --max-examples 10 --seed 42
//
// It starts Tabhive with two browsers and the loopback crawl site, and needs the Python venv of
// test/compat/python/requirements.txt (TABHIVE_PYTHON, or the one .ci/run caches). CI runs a short
// bounded run as part of `npm test` (test/compat/api-fuzz.test.ts).
import { parseArgs } from 'node:util';
import { runApiFuzz } from '../test/compat/fuzz/run-api-fuzz';

const { values } = parseArgs({
  options: {
    'max-time': { type: 'string', default: '600' },
    'max-examples': { type: 'string', default: '100' },
    seed: { type: 'string' },
  },
});
const { code, output } = await runApiFuzz({
  maxTimeSeconds: Number(values['max-time']),
  maxExamples: Number(values['max-examples']),
  ...(values.seed === undefined ? {} : { seed: Number(values.seed) }),
});
process.stdout.write(output);
process.exit(code ?? 1);
