import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * Where tesseract.js reads the English model: the `@tesseract.js-data/eng` package on disk (its
 * LSTM-only "best_int" build, as the LSTM engine needs). Given as a file path, tesseract.js reads
 * it with fs and never fetches it; its core (the WebAssembly build) is `require`d from
 * `tesseract.js-core` in Node, so nothing is downloaded at run time.
 */
export function englishLanguagePath(): string {
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}
