/** The API key lives in this tab's sessionStorage only: gone when the tab closes, never in a URL. */
const KEY_ITEM = 'tabhive.console.apiKey';

export const readKey = (): string | null => sessionStorage.getItem(KEY_ITEM);
export const saveKey = (key: string) => sessionStorage.setItem(KEY_ITEM, key);
export const forgetKey = () => sessionStorage.removeItem(KEY_ITEM);
