/**
 * The tab the popup works on. Chrome opens the popup for the active tab of the current window,
 * which is what it uses when no `tab` parameter is given. `popup.html?tab=<id>` names another
 * tab: end-to-end tests use it, since a headless browser has no toolbar button to click, and it
 * also lets a person keep the popup open in a tab of its own for a page they keep coming back to.
 */
export function targetTabId(search: string): number | undefined {
  const value = new URLSearchParams(search).get('tab');
  if (value === null || !/^\d{1,10}$/.test(value)) return undefined;
  return Number(value);
}
