import type { HttpFastPath } from './create-http-fast-path';
import type { TabhiveMetrics } from '../../../platform/metrics';

/** The HTTP fast path, marking a scrape it took a capture for as served over HTTP. */
export function markHttpCaptures(
  fastPath: HttpFastPath,
  metrics: Pick<TabhiveMetrics, 'engines'>,
): HttpFastPath {
  return {
    async capture(...args) {
      const fetched = await fastPath.capture(...args);
      // A capture that looks blocked goes on to a browser, whose task marks the scrape again.
      if (fetched !== undefined) metrics.engines.mark('http');
      return fetched;
    },
  };
}
