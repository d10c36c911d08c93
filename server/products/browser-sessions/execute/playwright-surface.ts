/**
 * What sandboxed execute code may call on the session's Playwright objects: a deny-by-default
 * table, per Playwright class, of the members the sandbox sees. A member is
 *
 * - `sync`: a method Playwright answers at once (`page.url()`, `page.locator()`), called from the
 *   sandbox synchronously so chains like `page.locator('h1').textContent()` read as in Node;
 * - `async`: a method that returns a promise (`page.goto()`, `locator.click()`);
 * - `{ object: Type }`: a property holding a helper object (`page.keyboard`).
 *
 * What is left out is left out on purpose (docs/browser-sessions.md#execute): anything that reads
 * or writes the server's files (`path` options, `setInputFiles`, `storageState`, tracing, HARs),
 * makes requests from the server (`context.request`, `page.request`), runs a callback on the
 * server (`page.on`, `route`, `exposeFunction`, predicate functions), or opens or closes pages,
 * contexts and the browser (the relay refuses those; the session ends with DELETE).
 */
export type Member = 'sync' | 'async' | { object: string };
export type Surface = Readonly<Record<string, Readonly<Record<string, Member>>>>;

const S = 'sync' as const;
const A = 'async' as const;

/** Builders and readers a Page, a Frame, a Locator and a FrameLocator share (all synchronous). */
const LOCATING = {
  locator: S,
  getByRole: S,
  getByText: S,
  getByLabel: S,
  getByPlaceholder: S,
  getByAltText: S,
  getByTitle: S,
  getByTestId: S,
  frameLocator: S,
} as const;

/** Actions and reads by selector that a Page and a Frame share. */
const BY_SELECTOR = {
  click: A,
  dblclick: A,
  fill: A,
  type: A,
  press: A,
  hover: A,
  focus: A,
  tap: A,
  check: A,
  uncheck: A,
  setChecked: A,
  selectOption: A,
  dispatchEvent: A,
  dragAndDrop: A,
  textContent: A,
  innerText: A,
  innerHTML: A,
  inputValue: A,
  getAttribute: A,
  isVisible: A,
  isHidden: A,
  isEnabled: A,
  isDisabled: A,
  isChecked: A,
  isEditable: A,
  waitForSelector: A,
  $: A,
  $$: A,
  $eval: A,
  $$eval: A,
} as const;

/** What a Page and a Frame share beyond selectors. */
const DOCUMENT = {
  ...LOCATING,
  ...BY_SELECTOR,
  goto: A,
  url: S,
  title: A,
  content: A,
  setContent: A,
  evaluate: A,
  evaluateHandle: A,
  waitForFunction: A,
  waitForLoadState: A,
  waitForURL: A,
  waitForTimeout: A,
  addScriptTag: A,
  addStyleTag: A,
} as const;

/** What a Locator and an ElementHandle share. */
const ELEMENT = {
  click: A,
  dblclick: A,
  fill: A,
  clear: A,
  type: A,
  press: A,
  pressSequentially: A,
  hover: A,
  focus: A,
  tap: A,
  check: A,
  uncheck: A,
  setChecked: A,
  selectOption: A,
  selectText: A,
  dispatchEvent: A,
  scrollIntoViewIfNeeded: A,
  textContent: A,
  innerText: A,
  innerHTML: A,
  inputValue: A,
  getAttribute: A,
  isVisible: A,
  isHidden: A,
  isEnabled: A,
  isDisabled: A,
  isChecked: A,
  isEditable: A,
  boundingBox: A,
  screenshot: A,
  evaluate: A,
  evaluateHandle: A,
} as const;

export const PLAYWRIGHT_SURFACE: Surface = {
  Browser: { contexts: S, isConnected: S, version: S },
  BrowserContext: {
    pages: S,
    browser: S,
    setDefaultTimeout: S,
    setDefaultNavigationTimeout: S,
    setExtraHTTPHeaders: A,
    addInitScript: A,
    cookies: A,
    addCookies: A,
    clearCookies: A,
  },
  Page: {
    ...DOCUMENT,
    context: S,
    mainFrame: S,
    frames: S,
    frame: S,
    isClosed: S,
    viewportSize: S,
    setDefaultTimeout: S,
    setDefaultNavigationTimeout: S,
    reload: A,
    goBack: A,
    goForward: A,
    bringToFront: A,
    setViewportSize: A,
    setExtraHTTPHeaders: A,
    emulateMedia: A,
    addInitScript: A,
    screenshot: A,
    pdf: A,
    waitForResponse: A,
    waitForRequest: A,
    keyboard: { object: 'Keyboard' },
    mouse: { object: 'Mouse' },
    touchscreen: { object: 'Touchscreen' },
  },
  Frame: {
    ...DOCUMENT,
    name: S,
    page: S,
    parentFrame: S,
    childFrames: S,
    isDetached: S,
    frameElement: A,
  },
  Locator: {
    ...LOCATING,
    ...ELEMENT,
    first: S,
    last: S,
    nth: S,
    filter: S,
    and: S,
    or: S,
    page: S,
    contentFrame: S,
    count: A,
    all: A,
    allTextContents: A,
    allInnerTexts: A,
    evaluateAll: A,
    waitFor: A,
    blur: A,
    highlight: A,
    ariaSnapshot: A,
    elementHandle: A,
    elementHandles: A,
    dragTo: A,
  },
  FrameLocator: { ...LOCATING, first: S, last: S, nth: S, owner: S },
  ElementHandle: {
    ...ELEMENT,
    $: A,
    $$: A,
    $eval: A,
    $$eval: A,
    waitForSelector: A,
    waitForElementState: A,
    contentFrame: A,
    ownerFrame: A,
    jsonValue: A,
    getProperty: A,
    asElement: S,
    dispose: A,
  },
  JSHandle: { evaluate: A, evaluateHandle: A, jsonValue: A, getProperty: A, asElement: S, dispose: A },
  Response: {
    url: S,
    status: S,
    statusText: S,
    ok: S,
    headers: S,
    request: S,
    frame: S,
    fromServiceWorker: S,
    allHeaders: A,
    headerValue: A,
    body: A,
    text: A,
    json: A,
    finished: A,
  },
  Request: {
    url: S,
    method: S,
    headers: S,
    postData: S,
    postDataJSON: S,
    resourceType: S,
    isNavigationRequest: S,
    frame: S,
    redirectedFrom: S,
    redirectedTo: S,
    failure: S,
    timing: S,
    allHeaders: A,
    response: A,
  },
  Keyboard: { press: A, type: A, down: A, up: A, insertText: A },
  Mouse: { click: A, dblclick: A, move: A, down: A, up: A, wheel: A },
  Touchscreen: { tap: A },
};

/**
 * Methods whose function arguments are page functions: their source text is sent to the page and
 * never runs on the server. A function anywhere else is refused.
 */
export const PAGE_FUNCTION_METHODS: ReadonlySet<string> = new Set([
  'evaluate',
  'evaluateHandle',
  'evaluateAll',
  '$eval',
  '$$eval',
  'waitForFunction',
  'addInitScript',
]);

/** Methods whose options may name a file on the server (`path`); that option is refused. */
export const FILE_OPTION_METHODS: ReadonlySet<string> = new Set([
  'screenshot',
  'pdf',
  'addScriptTag',
  'addStyleTag',
  'addInitScript',
]);
