/**
 * The platform wing, the floor of the server: configuration, log, store, teams and keys, errors,
 * egress and URL policy, models, metrics, webhooks, lifecycle.
 */
export { DEFAULT_TEAM, createStaticKeyring, createStoreKeyring, resolveDefaultApiKey } from './auth';
export type { Config } from './config';
export { createEgress } from './egress';
export type { Lifecycle } from './lifecycle';
export { createLlmProvider, createToolCallingLlm } from './llm';
export type { Log } from './log';
export { createTabhiveMetrics, instrumentDatabase, registerStoreGauges } from './metrics';
export { createStores, openDatabase, prepareStores } from './store';
export {
  isEgressProxyFailureStatus,
  looksLikeProxyFailure,
  proxyPoolFromConfig,
  registerProxyPoolMetrics,
  withProxyRotation,
} from './proxy-pool';
export type { ProxyPool, ProxyStat } from './proxy-pool';
export { createTeamAdmin, createTeamLimits, createUsageReports, recordTokens } from './teams';
export { createUrlPolicy } from './url-policy';
export type { LookupFn } from './url-policy';
export { createWebhookSender, writeWebhookSecret } from './webhooks';
export { createSmtpMailer } from './notify';
export type { Mailer } from './notify';
