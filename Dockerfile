# syntax=docker/dockerfile:1
# One image for both roles of a Tabhive cluster (docker/entrypoint.sh picks one):
#   docker run tabhive                 the API (default; `api`)
#   docker run tabhive browser-node    Chromium browsers joining a remote API's hub
#   docker run tabhive keys …          teams, API keys and node tokens of the store (npm run keys)
# test/e2e/container-entrypoint.test.ts runs the final stage's entrypoint, command and environment
# as the container does, and lints this file with hadolint (.hadolint.yaml).

# ---- build: the extension, the bundled server, then production dependencies only -------------------
FROM node:22-bookworm-slim AS build
WORKDIR /app

# Dependencies first, so that a change of source code reuses this layer. Scripts are off: the
# package's postinstall (`patch-package && wxt prepare`) needs sources not copied yet, and esbuild's
# own install script only checks the binary npm already installed from its platform package.
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --ignore-scripts --no-audit --no-fund \
    && npx patch-package --error-on-fail

COPY . .
# The postinstall's second half (WXT's generated .wxt/), the extension into .output/chrome-mv3, the
# server and the browser node into .output/server. Pruning keeps node_modules as patched above:
# both patched packages (linkedom, @mozilla/readability) are production dependencies.
RUN npx wxt prepare \
    && npm run build \
    && npm run build:server \
    && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

# ---- runtime: Debian's Chromium, Node 22, the built files, no dev dependencies -----------------------
FROM node:22-bookworm-slim AS runtime

# chromium-sandbox: Chromium's setuid sandbox helper. Docker's default seccomp profile refuses the
# user namespaces Chromium's own sandbox needs, and the browsers run as a non-root user with the
# sandbox on (Tabhive passes --no-sandbox only to a root process). tini is PID 1: it forwards
# SIGTERM to node and reaps the processes Chromium leaves behind when a browser is restarted.
# xvfb and Mesa's llvmpipe (libgl1-mesa-dri): launched browsers run headful on a private virtual
# display, with WebGL drawn in software, so that pages take them for a person's Chrome
# (docs/browser-control.md, "Bot detection"); without them they fall back to headless.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        chromium \
        chromium-sandbox \
        fonts-liberation \
        libgl1-mesa-dri \
        tini \
        xvfb \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 tabhive \
    && useradd --system --uid 10001 --gid tabhive --create-home --home-dir /home/tabhive tabhive \
    && mkdir -p /data \
    && chown tabhive:tabhive /data

WORKDIR /app
# The bundles find the built extension, package.json and the worker threads' TypeScript sources
# (run with tsx, a production dependency) beside them, in the checkout's layout. The derivation
# worker imports from extension/ too (the cookie-banner selectors the browser also hides).
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/scripts/check-node-version.cjs ./scripts/check-node-version.cjs
COPY --from=build /app/server ./server
COPY --from=build /app/shared ./shared
COPY --from=build /app/extension ./extension
COPY --from=build /app/.output/chrome-mv3 ./.output/chrome-mv3
COPY --from=build /app/.output/server ./.output/server
COPY --from=build --chmod=0755 /app/docker/entrypoint.sh ./docker/entrypoint.sh

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3002 \
    DATA_DIR=/data \
    CHROME_PATH=/usr/lib/chromium/chromium
VOLUME ["/data"]
EXPOSE 3002

# Numeric, so that a runtime can tell without the image's /etc/passwd that the user is not root.
USER 10001:10001

# The API's liveness; a browser-node container has no HTTP port (compose.yaml turns this off for it).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3002) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

ENTRYPOINT ["tini", "--", "/app/docker/entrypoint.sh"]
CMD ["api"]
