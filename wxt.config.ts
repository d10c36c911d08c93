import { createRequire } from 'node:module';
import type { Plugin, Rolldown } from 'vite';
import { defineConfig } from 'wxt';
import { EXTENSION_PUBLIC_KEY } from './shared/extension-identity';

/** Rendered from extension/assets/icon.svg by scripts/render-icons.ts. */
const ICONS = { 16: 'icons/16.png', 32: 'icons/32.png', 48: 'icons/48.png', 128: 'icons/128.png' };

/**
 * linkedom's CSS parser uses the `cssstyle` package when it can load it and its own declaration
 * class when it cannot (a try/catch around the require). It is installed here only for jsdom's sake,
 * and bundling it would double the popup's converter (colour spaces and all) for style attributes the
 * conversion never reads; so in the extension it cannot be loaded, as on a machine without it.
 */
function withoutCssstyle(): Plugin {
  const id = '\0cssstyle-left-out';
  return {
    name: 'tabhive:without-cssstyle',
    enforce: 'pre',
    resolveId: (source, importer) =>
      source === 'cssstyle' && importer?.includes('@acemir/cssom') ? id : undefined,
    load: (loaded) =>
      loaded === id ? `throw new Error('cssstyle is left out of the extension');` : undefined,
  };
}

/**
 * linkedom's CSS parser (@acemir/cssom) finds an error's constructor by name with a direct eval
 * (`eval(errorType)`, the name one of its own constants such as 'TypeError', never page text), and
 * the bundler reports every direct eval in a box some fifteen lines long, on every build. That one
 * is expected and harmless, so it alone is dropped; a direct eval anywhere else is still reported.
 */
const withoutCssomEvalWarning: NonNullable<Rolldown.RolldownOptions['onLog']> = (level, log, report) => {
  if (log.code === 'EVAL' && log.id?.includes('@acemir/cssom')) return;
  report(level, log);
};

// The extension lives in extension/; WXT resolves publicDir from the project root since 0.20,
// so it is set explicitly to keep everything the extension ships under one folder.
export default defineConfig({
  srcDir: 'extension',
  publicDir: 'extension/public',
  // Explicit imports everywhere: a reader of any file sees where each name comes from.
  imports: false,
  // The standard extension APIs through webextension-polyfill; chrome.debugger is used directly.
  modules: ['@wxt-dev/webextension-polyfill'],
  vite: () => ({
    plugins: [withoutCssstyle()],
    build: {
      rolldownOptions: {
        onLog: withoutCssomEvalWarning,
        // Chrome refuses to inject a script file holding a Unicode noncharacter (rrweb's CSS parser
        // has a literal U+FFFE): "It isn't UTF-8 encoded". Escaped, every character is ASCII.
        output: { charset: 'ascii' },
      },
    },
    // The popup's converter (entrypoints/popup/convert-worker.ts) is an ES module like the rest.
    worker: { format: 'es', plugins: () => [withoutCssstyle()] },
    resolve: {
      alias: [
        // The popup converts pages with linkedom, whose CSS parser's `browser` build is a bare global
        // script with no exports; its CommonJS build bundles fine.
        { find: /^@acemir\/cssom$/, replacement: createRequire(import.meta.url).resolve('@acemir/cssom') },
      ],
    },
  }),
  manifest: {
    name: 'Tabhive',
    description: 'Scrapes pages to Markdown for you and for your Tabhive server.',
    // A fixed key pins the extension id, which the launcher and the server rely on.
    key: EXTENSION_PUBLIC_KEY,
    // 116: WebSocket traffic keeps the worker alive; 118: an attached debugger does too.
    minimum_chrome_version: '125',
    // declarativeNetRequestWithHostAccess: per-task session rules (headers, ad blocking), limited to
    // hosts the extension may access anyway, so it adds no install warning.
    permissions: [
      'debugger',
      'tabs',
      'storage',
      'alarms',
      'scripting',
      // Tasks without the debugger follow their tab's requests and navigations through these.
      'webRequest',
      'webNavigation',
      // Donated browsers only: "a task for <team> needs you on <site>" when a challenge page waits for its person.
      'notifications',
      'declarativeNetRequestWithHostAccess',
      // Launched browsers only: a team's cookies and storage are wiped before another team's tasks.
      'browsingData',
      // Launched browsers only: a browser profile's cookies are loaded and read back
      // (extension/tasks/browser-profile.ts); no install warning beyond <all_urls>.
      'cookies',
    ],
    host_permissions: ['<all_urls>'],
    icons: ICONS,
    // The popup (entrypoints/popup) is the toolbar button's; WXT adds it to this action.
    action: { default_icon: ICONS },
    // A suggested key to open the popup without a mouse; people can change it in chrome://extensions/shortcuts.
    commands: {
      _execute_action: { suggested_key: { default: 'Alt+Shift+M' }, description: 'Scrape this page' },
    },
  },
});
