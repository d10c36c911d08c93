#!/bin/sh
# The image's entrypoint (Dockerfile): the first argument picks the role, the rest goes to it.
#   api (default)   the API: node .output/server/main.mjs
#   browser-node    browsers that join a remote hub: node .output/server/browser-node.mjs [flags]
#   keys            teams, API keys and node tokens of the store: server/api/cli/keys.ts [command]
# Each role is exec'd, so that node is the process tini signals: SIGTERM stops the API, and makes a
# browser node drain (it takes no new tasks, finishes or hands back the ones it holds) and exit.
set -eu

# The built files are found beside this script, wherever the image (or a checkout) keeps them.
cd "$(dirname -- "$0")/.."

role="${1:-api}"
if [ "$#" -gt 0 ]; then shift; fi

case "$role" in
  api)
    exec node .output/server/main.mjs "$@"
    ;;
  browser-node)
    exec node .output/server/browser-node.mjs "$@"
    ;;
  keys)
    exec node --import tsx server/api/cli/keys.ts "$@"
    ;;
  *)
    echo "tabhive: unknown role \"$role\"; expected api, browser-node or keys" >&2
    exit 64
    ;;
esac
