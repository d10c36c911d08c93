/**
 * Counts the extension API calls this worker makes: every one is a message to the browser
 * process, whose main thread is the busiest thread of a crawl (BENCHMARKS.md#measured-facts). The count is
 * reported with each task's result, so that calls per page show on the server (issue 18: a
 * plain Markdown page may cost at most four) and in the bench.
 *
 * It wraps the functions of the namespaces the worker calls, once, before anything else of the
 * worker runs (background.ts imports this first): webextension-polyfill looks `chrome.*`
 * functions up when it first wraps them, so later patching would miss them. Events are objects,
 * not functions, and are left alone; listeners are registered once, not per task.
 */
const COUNTED = [
  'action',
  'alarms',
  'browsingData',
  'debugger',
  'declarativeNetRequest',
  'scripting',
  'storage.local',
  'storage.session',
  'tabs',
  'webNavigation',
  'windows',
] as const;

let calls = 0;
let installed = false;

function wrapFunctions(namespace: Record<string, unknown>): void {
  // `for…in`: a storage area's methods live on its prototype.
  for (const name in namespace) {
    const original = namespace[name];
    if (typeof original !== 'function' || /^[A-Z]/.test(name)) continue;
    namespace[name] = function counted(this: unknown, ...args: unknown[]) {
      calls += 1;
      return (original as (...params: unknown[]) => unknown).apply(namespace, args);
    };
  }
}

export function countExtensionApiCalls(): void {
  if (installed) return;
  installed = true;
  const chromeApi = (globalThis as unknown as { chrome?: Record<string, unknown> }).chrome;
  if (chromeApi === undefined) return;
  for (const path of COUNTED) {
    const namespace = path
      .split('.')
      .reduce<unknown>((object, key) => (object as Record<string, unknown> | undefined)?.[key], chromeApi);
    if (namespace !== undefined && namespace !== null) wrapFunctions(namespace as Record<string, unknown>);
  }
}

/** Extension API calls made since the worker started. */
export const extensionApiCalls = (): number => calls;

countExtensionApiCalls();
