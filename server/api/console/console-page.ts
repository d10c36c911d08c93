/**
 * The console's CSP: its script and style are files this server serves (no inline code, no CDN),
 * screenshots are data: URLs, and it talks to this origin only (the API and the status socket).
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The page shell; the app (console/main.ts, built to .output/console) renders into #app. */
export const renderConsolePage = () => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Tabhive console</title>
<link rel="stylesheet" href="/console/assets/console.css">
<script type="module" src="/console/assets/console.js"></script>
</head>
<body>
<div id="app"><p>Loading the console…</p></div>
<noscript><p>The Tabhive console needs JavaScript.</p></noscript>
</body>
</html>
`;

export const renderConsoleNotBuilt = () => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tabhive console</title></head>
<body><h1>The console is not built</h1><p>Run <code>npm run build:server</code> (which <code>npm start</code> runs) and reload.</p></body></html>
`;
