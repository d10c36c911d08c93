import type Router from '@koa/router';
import { Registry } from 'prom-client';
import type { Log } from '../../platform/log';
import type { ReadinessDeps } from './check-readiness';
import { metricsRoutes } from './metrics-routes';
import { readyRoutes } from './ready-routes';

/** What `/metrics` and `/ready` read: the instance's metrics registry and its readiness checks. */
export interface ObservabilityDeps {
  metrics: { registry: Registry; token?: string | undefined };
  readiness: ReadinessDeps;
}

/**
 * `/metrics` and `/ready`. An app built without them (tests of other routes) still serves both:
 * an empty registry, and a readiness that has no store to ask and so is never ready.
 */
export function observabilityRoutes({
  observability,
  connectedBrowsers,
  log,
}: {
  observability: ObservabilityDeps | undefined;
  connectedBrowsers(): number;
  log: Log;
}): Router[] {
  const { metrics, readiness } = observability ?? {
    metrics: { registry: new Registry() },
    readiness: {
      pingStore: () => Promise.reject(new Error('this app has no store')),
      browsersAvailable: connectedBrowsers,
      servesBrowserWork: false,
    },
  };
  return [metricsRoutes(metrics), readyRoutes({ readiness, log })];
}
