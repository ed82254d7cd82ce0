# syntax=docker/dockerfile:1
# Hookloop's server image: `hookloop serve` (the engine and the browser app) on a data volume,
# without Electron. Three stages: the build (every dependency, the bundle), the production
# dependencies (better-sqlite3 compiled for this Node), and the runtime, which holds only those
# and the built out/. docs/team.md, "Running it", says how to run it and what it answers.
ARG NODE_IMAGE=node:20-bookworm-slim

# --- build: the bundle (out/main, out/renderer) --------------------------------------------------
FROM ${NODE_IMAGE} AS build
# better-sqlite3 compiles from source where its prebuilt binary cannot be fetched.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Electron's binary is never needed here: the CLI and the server run on plain Node.
ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1
COPY package.json package-lock.json ./
# The project's postinstall (scripts/install-electron-binary.mjs) runs during npm ci.
COPY scripts ./scripts
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx electron-vite build

# --- production-deps: node_modules without dev dependencies (no Electron, no test tools) ---------
FROM ${NODE_IMAGE} AS production-deps
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json ./
# No install scripts (the project's would fetch Electron), then the one native addon built for this Node.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm rebuild better-sqlite3 \
 && npm cache clean --force

# --- runtime ----------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOOKLOOP_DATA=/data \
    HOOKLOOP_PORT=8080 \
    HOOKLOOP_RECEIVER_PORT=8081
WORKDIR /app
COPY --from=production-deps /src/node_modules ./node_modules
COPY --from=build /src/out/main ./out/main
COPY --from=build /src/out/renderer ./out/renderer
COPY package.json ./
COPY bin ./bin
RUN mkdir -p /data && chown node:node /data
# The node images' unprivileged user (uid 1000): the server never runs as root.
USER node
VOLUME ["/data"]
# The app with its probes and metrics, and the webhook receiver. While Hookloop has no accounts
# the server listens on the container's loopback only (docs/team.md, "Running it").
EXPOSE 8080 8081
# The slim image has no curl: Node's own fetch reads /livez.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.HOOKLOOP_PORT}/livez`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains: answers in flight are finished and recorded, then exit 0 (within HOOKLOOP_DRAIN_TIMEOUT).
STOPSIGNAL SIGTERM
CMD ["node", "bin/hookloop.js", "serve"]
