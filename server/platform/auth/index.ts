/** API keys: the configured default key and the keyring that finds a key's team. */
export { API_KEY_FILE, resolveDefaultApiKey } from './default-api-key';
export { DEFAULT_TEAM, createStaticKeyring, createStoreKeyring } from './keyring';
export type { Keyring, Team } from './keyring';
