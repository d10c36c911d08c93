/**
 * A browser session's `execute` with `language: "node"`: the caller's Playwright code in a V8
 * isolate, bridged to the session's page over its own CDP relay (docs/browser-sessions.md#execute).
 */
export { runPlaywrightCode, RelayUnreachable } from './run-playwright-code';
export type { OpenRelayEndpoint, PrivateRelayEndpoint } from './run-playwright-code';
export { sandboxOutput } from './sandbox-output';
export { DEFAULT_SANDBOX_LIMITS } from './sandbox-limits';
export type { SandboxLimits } from './sandbox-limits';
