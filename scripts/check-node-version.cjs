/*
 * Stops with a clear message on a Node.js older than Tabhive needs, before anything that needs a
 * newer one runs: `npm start` and `npm test` run it first, and server/main.ts and the built server's
 * .output/server/main.mjs (scripts/build-server.mjs) import it first.
 * (On Node 20 the server dies in a dependency with "Cannot read properties of undefined (reading
 * 'bind')", which says nothing about the cause.) It stays in ES5 and CommonJS so that any old Node
 * can parse it, and requires nothing.
 */
/* global process, console */
'use strict';

var REQUIRED_MAJOR = 22;
/** Where the README's Quick start installs Node without nvm; the same folder here and there. */
var NODE_FOLDER = '~/.local/node' + REQUIRED_MAJOR;

var major = Number(String(process.versions.node).split('.')[0]);
if (!(major >= REQUIRED_MAJOR)) {
  console.error(
    [
      'Tabhive needs Node.js ' + REQUIRED_MAJOR + ' or newer (this is ' + process.version + ').',
      'Install it with nvm (https://github.com/nvm-sh/nvm): nvm install ' + REQUIRED_MAJOR,
      'or without nvm, into ' + NODE_FOLDER + " (the package.json lets npm 11 run node's installer):",
      '  mkdir -p ' + NODE_FOLDER,
      '  echo \'{"allowScripts":{"node":true}}\' > ' + NODE_FOLDER + '/package.json',
      '  npm install --prefix ' + NODE_FOLDER + ' node@' + REQUIRED_MAJOR,
      '  export PATH=' + NODE_FOLDER + '/node_modules/.bin:$PATH',
      'then run the command again.',
    ].join('\n'),
  );
  process.exit(1);
}
