/** Health, readiness and Prometheus metrics routes (/health, /ready, /metrics). */
export type { WorkProblem } from './check-readiness';
export { observabilityRoutes } from './observability-routes';
export type { ObservabilityDeps } from './observability-routes';
