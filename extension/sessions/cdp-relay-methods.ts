import { z } from 'zod';
import {
  callArgument,
  code,
  dragData,
  flag,
  headers,
  id,
  int,
  looseObject,
  nodeRef,
  none,
  num,
  objectId,
  params,
  rect,
  serializationOptions,
  text,
  token,
  uniqueId,
  viewport,
  webUrl,
  worldName,
} from './cdp-relay-params';

/** One method a relay client may send: its parameters, and whether a donated browser refuses it. */
export interface RelayMethod {
  params: z.ZodType<Record<string, unknown>>;
  /** Why a donated browser (a person's own) refuses it; undefined when it does not. */
  refusedOnDonated?: string;
}

const COOKIES_STAY = 'cookies of a donated browser stay with its owner';

const mouseButton = z.enum(['none', 'left', 'middle', 'right', 'back', 'forward']);

/**
 * Every DevTools method the cdpUrl relay passes to a session's tab, with its parameters; the rest
 * is refused (docs/cdp-relay-allowlist.md has the table and the reasons). Enough for a page-scoped
 * Playwright `connectOverCDP` or Puppeteer `connect`: the connect handshake (the server answers the
 * Target.* and Browser.* part itself), navigation, input, evaluation in the page's worlds and the
 * client's own, screenshots, PDF, emulation and the events clients enable. Contexts and remote
 * objects are checked against what the client may reach (cdp-relay-contexts.ts), navigations
 * against the network policy and a donor's fence (cdp-relay-navigation.ts).
 */
export const RELAY_METHODS: ReadonlyMap<string, RelayMethod> = new Map<string, RelayMethod>([
  // Navigation and frames.
  ['Page.enable', { params: params({ enableFileChooserOpenedEvent: flag.optional() }) }],
  ['Page.getFrameTree', { params: none }],
  // Tabhive's page watch needs lifecycle events: a client may switch them on only.
  ['Page.setLifecycleEventsEnabled', { params: params({ enabled: z.literal(true) }) }],
  [
    'Page.navigate',
    {
      params: params({
        url: webUrl,
        referrer: webUrl.optional(),
        transitionType: z.string().max(40).optional(),
        frameId: token.optional(),
        referrerPolicy: z.string().max(40).optional(),
      }),
    },
  ],
  [
    'Page.reload',
    {
      params: params({
        ignoreCache: flag.optional(),
        scriptToEvaluateOnLoad: code.optional(),
        loaderId: token.optional(),
      }),
    },
  ],
  ['Page.getNavigationHistory', { params: none }],
  ['Page.navigateToHistoryEntry', { params: params({ entryId: id }) }],
  ['Page.stopLoading', { params: none }],
  ['Page.handleJavaScriptDialog', { params: params({ accept: flag, promptText: text.optional() }) }],
  // The file chooser is only intercepted: files reach an input through DOM.setFileInputFiles, refused.
  ['Page.setInterceptFileChooserDialog', { params: params({ enabled: flag, cancel: flag.optional() }) }],
  [
    'Page.bringToFront',
    { params: none, refusedOnDonated: 'a donated browser’s window focus stays with its owner' },
  ],
  // Worlds: universal access is taken away (cdp-relay-allowlist.ts), the name is the client's own.
  [
    'Page.createIsolatedWorld',
    {
      params: params({
        frameId: token,
        worldName: worldName.optional(),
        grantUniveralAccess: flag.optional(),
        contentSecurityPolicy: text.optional(),
      }),
    },
  ],
  [
    'Page.addScriptToEvaluateOnNewDocument',
    {
      params: params({
        source: code,
        worldName: worldName.optional(),
        includeCommandLineAPI: flag.optional(),
        runImmediately: flag.optional(),
      }),
    },
  ],
  ['Page.removeScriptToEvaluateOnNewDocument', { params: params({ identifier: token }) }],
  ['Page.setBypassCSP', { params: params({ enabled: flag }) }],
  [
    'Page.setFontFamilies',
    { params: params({ fontFamilies: looseObject, forScripts: z.array(looseObject).max(50).optional() }) },
  ],
  ['Page.setFontSizes', { params: params({ fontSizes: looseObject }) }],
  // Capture.
  ['Page.getLayoutMetrics', { params: none }],
  [
    'Page.captureScreenshot',
    {
      params: params({
        format: z.enum(['jpeg', 'png', 'webp']).optional(),
        quality: int.optional(),
        clip: viewport.optional(),
        fromSurface: flag.optional(),
        captureBeyondViewport: flag.optional(),
        optimizeForSpeed: flag.optional(),
      }),
    },
  ],
  [
    'Page.printToPDF',
    {
      params: params({
        landscape: flag.optional(),
        displayHeaderFooter: flag.optional(),
        printBackground: flag.optional(),
        scale: num.optional(),
        paperWidth: num.optional(),
        paperHeight: num.optional(),
        marginTop: num.optional(),
        marginBottom: num.optional(),
        marginLeft: num.optional(),
        marginRight: num.optional(),
        pageRanges: text.optional(),
        headerTemplate: text.optional(),
        footerTemplate: text.optional(),
        preferCSSPageSize: flag.optional(),
        // The server serves streams itself (cdp-relay-streams.ts): the tab answers base64 only.
        transferMode: z.literal('ReturnAsBase64').optional(),
        generateTaggedPDF: flag.optional(),
        generateDocumentOutline: flag.optional(),
      }),
    },
  ],
  // Evaluation: contexts and objects are the client's to reach (cdp-relay-contexts.ts).
  ['Runtime.enable', { params: none }],
  ['Runtime.disable', { params: none }],
  [
    'Runtime.evaluate',
    {
      params: params({
        expression: code,
        objectGroup: text.optional(),
        includeCommandLineAPI: flag.optional(),
        silent: flag.optional(),
        contextId: id.optional(),
        returnByValue: flag.optional(),
        generatePreview: flag.optional(),
        userGesture: flag.optional(),
        awaitPromise: flag.optional(),
        throwOnSideEffect: flag.optional(),
        timeout: num.optional(),
        disableBreaks: flag.optional(),
        replMode: flag.optional(),
        allowUnsafeEvalBlockedByCSP: flag.optional(),
        uniqueContextId: uniqueId.optional(),
        serializationOptions: serializationOptions.optional(),
      }),
    },
  ],
  [
    'Runtime.callFunctionOn',
    {
      params: params({
        functionDeclaration: code,
        objectId: objectId.optional(),
        arguments: z.array(callArgument).max(1000).optional(),
        silent: flag.optional(),
        returnByValue: flag.optional(),
        generatePreview: flag.optional(),
        userGesture: flag.optional(),
        awaitPromise: flag.optional(),
        executionContextId: id.optional(),
        objectGroup: text.optional(),
        throwOnSideEffect: flag.optional(),
        uniqueContextId: uniqueId.optional(),
        serializationOptions: serializationOptions.optional(),
      }),
    },
  ],
  [
    'Runtime.getProperties',
    {
      params: params({
        objectId,
        ownProperties: flag.optional(),
        accessorPropertiesOnly: flag.optional(),
        generatePreview: flag.optional(),
        nonIndexedPropertiesOnly: flag.optional(),
      }),
    },
  ],
  ['Runtime.releaseObject', { params: params({ objectId }) }],
  ['Runtime.releaseObjectGroup', { params: params({ objectGroup: text }) }],
  [
    'Runtime.awaitPromise',
    {
      params: params({
        promiseObjectId: objectId,
        returnByValue: flag.optional(),
        generatePreview: flag.optional(),
      }),
    },
  ],
  [
    'Runtime.addBinding',
    {
      params: params({
        name: z.string().max(200),
        executionContextId: id.optional(),
        executionContextName: worldName.optional(),
      }),
    },
  ],
  ['Runtime.removeBinding', { params: params({ name: z.string().max(200) }) }],
  ['Runtime.discardConsoleEntries', { params: none }],
  // The DOM, read and addressed; no file inputs.
  ['DOM.enable', { params: params({ includeWhitespace: z.enum(['none', 'all']).optional() }) }],
  ['DOM.disable', { params: none }],
  ['DOM.getDocument', { params: params({ depth: int.optional(), pierce: flag.optional() }) }],
  ['DOM.describeNode', { params: params({ ...nodeRef, depth: int.optional(), pierce: flag.optional() }) }],
  [
    'DOM.resolveNode',
    {
      params: params({
        nodeId: id.optional(),
        backendNodeId: id.optional(),
        objectGroup: text.optional(),
        executionContextId: id.optional(),
      }),
    },
  ],
  ['DOM.requestNode', { params: params({ objectId }) }],
  ['DOM.querySelector', { params: params({ nodeId: id, selector: text }) }],
  ['DOM.querySelectorAll', { params: params({ nodeId: id, selector: text }) }],
  ['DOM.getBoxModel', { params: params(nodeRef) }],
  ['DOM.getContentQuads', { params: params(nodeRef) }],
  ['DOM.scrollIntoViewIfNeeded', { params: params({ ...nodeRef, rect: rect.optional() }) }],
  ['DOM.focus', { params: params(nodeRef) }],
  ['DOM.getOuterHTML', { params: params({ ...nodeRef, includeShadowDOM: flag.optional() }) }],
  ['DOM.getFrameOwner', { params: params({ frameId: token }) }],
  [
    'DOM.getNodeForLocation',
    {
      params: params({
        x: int,
        y: int,
        includeUserAgentShadowDOM: flag.optional(),
        ignorePointerEventsNone: flag.optional(),
      }),
    },
  ],
  // Input: trusted events, never files.
  [
    'Input.dispatchMouseEvent',
    {
      params: params({
        type: z.enum(['mousePressed', 'mouseReleased', 'mouseMoved', 'mouseWheel']),
        x: num,
        y: num,
        modifiers: int.optional(),
        timestamp: num.optional(),
        button: mouseButton.optional(),
        buttons: int.optional(),
        clickCount: int.optional(),
        force: num.optional(),
        tangentialPressure: num.optional(),
        tiltX: num.optional(),
        tiltY: num.optional(),
        twist: int.optional(),
        deltaX: num.optional(),
        deltaY: num.optional(),
        pointerType: z.enum(['mouse', 'pen']).optional(),
      }),
    },
  ],
  [
    'Input.dispatchKeyEvent',
    {
      params: params({
        type: z.enum(['keyDown', 'keyUp', 'rawKeyDown', 'char']),
        modifiers: int.optional(),
        timestamp: num.optional(),
        text: text.optional(),
        unmodifiedText: text.optional(),
        keyIdentifier: text.optional(),
        code: text.optional(),
        key: text.optional(),
        windowsVirtualKeyCode: int.optional(),
        nativeVirtualKeyCode: int.optional(),
        autoRepeat: flag.optional(),
        isKeypad: flag.optional(),
        isSystemKey: flag.optional(),
        location: int.optional(),
        commands: z.array(z.string().max(100)).max(20).optional(),
      }),
    },
  ],
  ['Input.insertText', { params: params({ text: code }) }],
  [
    'Input.dispatchTouchEvent',
    {
      params: params({
        type: z.enum(['touchStart', 'touchEnd', 'touchMove', 'touchCancel']),
        touchPoints: z.array(looseObject).max(20),
        modifiers: int.optional(),
        timestamp: num.optional(),
      }),
    },
  ],
  [
    'Input.dispatchDragEvent',
    {
      params: params({
        type: z.enum(['dragEnter', 'dragOver', 'drop', 'dragCancel']),
        x: num,
        y: num,
        data: dragData,
        modifiers: int.optional(),
      }),
    },
  ],
  ['Input.setInterceptDrags', { params: params({ enabled: flag }) }],
  // Emulation of the tab's own page.
  [
    'Emulation.setDeviceMetricsOverride',
    {
      params: params({
        width: int,
        height: int,
        deviceScaleFactor: num,
        mobile: flag,
        scale: num.optional(),
        screenWidth: int.optional(),
        screenHeight: int.optional(),
        positionX: int.optional(),
        positionY: int.optional(),
        dontSetVisibleSize: flag.optional(),
        screenOrientation: looseObject.optional(),
        viewport: viewport.optional(),
      }),
    },
  ],
  ['Emulation.clearDeviceMetricsOverride', { params: none }],
  [
    'Emulation.setTouchEmulationEnabled',
    { params: params({ enabled: flag, maxTouchPoints: int.optional() }) },
  ],
  [
    'Emulation.setEmulatedMedia',
    { params: params({ media: text.optional(), features: z.array(looseObject).max(50).optional() }) },
  ],
  ['Emulation.setFocusEmulationEnabled', { params: params({ enabled: flag }) }],
  [
    'Emulation.setUserAgentOverride',
    {
      params: params({
        userAgent: text,
        acceptLanguage: text.optional(),
        platform: text.optional(),
        userAgentMetadata: looseObject.optional(),
      }),
    },
  ],
  ['Emulation.setLocaleOverride', { params: params({ locale: text.optional() }) }],
  ['Emulation.setTimezoneOverride', { params: params({ timezoneId: text }) }],
  [
    'Emulation.setGeolocationOverride',
    {
      params: params({
        latitude: num.optional(),
        longitude: num.optional(),
        accuracy: num.optional(),
        altitude: num.optional(),
        altitudeAccuracy: num.optional(),
        heading: num.optional(),
        speed: num.optional(),
      }),
    },
  ],
  ['Emulation.clearGeolocationOverride', { params: none }],
  ['Emulation.setDefaultBackgroundColorOverride', { params: params({ color: looseObject.optional() }) }],
  ['Emulation.setScriptExecutionDisabled', { params: params({ value: flag }) }],
  ['Emulation.setCPUThrottlingRate', { params: params({ rate: num }) }],
  [
    'Emulation.setEmulatedVisionDeficiency',
    {
      params: params({
        type: z.enum([
          'none',
          'blurredVision',
          'reducedContrast',
          'achromatopsia',
          'deuteranopia',
          'protanopia',
          'tritanopia',
        ]),
      }),
    },
  ],
  ['Emulation.setIdleOverride', { params: params({ isUserActive: flag, isScreenUnlocked: flag }) }],
  ['Emulation.clearIdleOverride', { params: none }],
  ['Emulation.setScrollbarsHidden', { params: params({ hidden: flag }) }],
  // The page's own traffic, observed; requests are never rewritten or answered for the page.
  [
    'Network.enable',
    {
      params: params({
        maxTotalBufferSize: int.optional(),
        maxResourceBufferSize: int.optional(),
        maxPostDataSize: int.optional(),
      }),
    },
  ],
  ['Network.getResponseBody', { params: params({ requestId: token }) }],
  ['Network.getRequestPostData', { params: params({ requestId: token }) }],
  ['Network.setExtraHTTPHeaders', { params: params({ headers }) }],
  ['Network.setCacheDisabled', { params: params({ cacheDisabled: flag }) }],
  ['Network.setBypassServiceWorker', { params: params({ bypass: flag }) }],
  [
    'Network.setUserAgentOverride',
    {
      params: params({
        userAgent: text,
        acceptLanguage: text.optional(),
        platform: text.optional(),
        userAgentMetadata: looseObject.optional(),
      }),
    },
  ],
  [
    'Network.emulateNetworkConditions',
    {
      params: params({
        offline: flag,
        latency: num,
        downloadThroughput: num,
        uploadThroughput: num,
        connectionType: z.string().max(40).optional(),
        packetLoss: num.optional(),
        packetQueueLength: int.optional(),
        packetReordering: flag.optional(),
      }),
    },
  ],
  [
    'Network.setBlockedURLs',
    {
      params: params({
        urls: z.array(text).max(1000).optional(),
        urlPatterns: z.array(looseObject).max(1000).optional(),
      }),
    },
  ],
  // A launched browser's jar is the team's own (and wiped before another team's work).
  [
    'Network.getCookies',
    { params: params({ urls: z.array(text).max(100).optional() }), refusedOnDonated: COOKIES_STAY },
  ],
  [
    'Network.setCookie',
    {
      params: params({
        name: text,
        value: text,
        url: webUrl.optional(),
        domain: text.optional(),
        path: text.optional(),
        secure: flag.optional(),
        httpOnly: flag.optional(),
        sameSite: z.enum(['Strict', 'Lax', 'None']).optional(),
        expires: num.optional(),
        priority: z.enum(['Low', 'Medium', 'High']).optional(),
      }),
      refusedOnDonated: COOKIES_STAY,
    },
  ],
  [
    'Network.setCookies',
    { params: params({ cookies: z.array(looseObject).max(200) }), refusedOnDonated: COOKIES_STAY },
  ],
  [
    'Network.deleteCookies',
    {
      params: params({ name: text, url: webUrl.optional(), domain: text.optional(), path: text.optional() }),
      refusedOnDonated: COOKIES_STAY,
    },
  ],
  // Event subscriptions clients enable at connect.
  ['Log.enable', { params: none }],
  ['Log.disable', { params: none }],
  ['Log.clear', { params: none }],
  ['Inspector.enable', { params: none }],
  ['Inspector.disable', { params: none }],
  ['Performance.enable', { params: params({ timeDomain: z.enum(['timeTicks', 'threadTicks']).optional() }) }],
  ['Performance.disable', { params: none }],
  ['Performance.getMetrics', { params: none }],
  ['Audits.enable', { params: none }],
  ['Audits.disable', { params: none }],
  // The page's accessibility tree (Puppeteer's and Playwright's aria snapshots).
  ['Accessibility.enable', { params: none }],
  ['Accessibility.disable', { params: none }],
  ['Accessibility.getFullAXTree', { params: params({ depth: int.optional(), frameId: token.optional() }) }],
  [
    'Accessibility.queryAXTree',
    { params: params({ ...nodeRef, accessibleName: text.optional(), role: text.optional() }) },
  ],
  ['Accessibility.getPartialAXTree', { params: params({ ...nodeRef, fetchRelatives: flag.optional() }) }],
]);

/** Names of the allowed methods, in the table's order (docs/cdp-relay-allowlist.md lists them). */
export const RELAY_ALLOWED_METHODS: readonly string[] = [...RELAY_METHODS.keys()];

/** Answered by the relay without reaching the tab: Tabhive's own watch of the tab needs them on. */
export const RELAY_NO_OP_METHODS: ReadonlySet<string> = new Set(['Page.disable', 'Network.disable']);
