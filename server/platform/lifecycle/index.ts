/** Set-up paired with tear-down: components register their start and close where they are made. */
export { createLifecycle } from './lifecycle';
export type { Lifecycle } from './lifecycle';
