# One image for the API, the ingest worker and the MCP server; deploy/docker-entrypoint.sh picks
# which (docs/deploy.md). Build with `docker build -t agentic-rag .` (BuildKit, the default builder).
#
#   base       Node 20 on Debian bookworm (slim) with the pnpm version package.json pins
#   manifests  only the workspace's package.json files and the lockfile, so the dependency
#              layers below are rebuilt only when a dependency changes, not on every source edit
#   prod-deps  production dependencies only, without install scripts (the build's prepare needs
#              TypeScript, a dev dependency; no production dependency has a build script)
#   build      every dependency plus the sources; `pnpm install` runs `prepare`, which is the
#              build (scripts/build.mjs) and writes each package's dist/
#   runtime    prod-deps + dist/ + migrations, run as a non-root user

FROM node:20-bookworm-slim AS base
WORKDIR /app
COPY package.json ./
# The exact pnpm of package.json's packageManager field: the lockfile is read by the pnpm that wrote it.
RUN npm install --global --no-audit --no-fund "$(node -p "require('./package.json').packageManager")"

FROM base AS manifests
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
COPY apps ./apps
COPY packages ./packages
# Keeps apps/*/package.json and packages/*/package.json, whatever packages exist: a new workspace
# package needs no change here.
RUN find apps packages -type f ! -name package.json -delete && find apps packages -type d -empty -delete

FROM base AS prod-deps
COPY --from=manifests /app ./
RUN --mount=type=cache,id=agentic-rag-pnpm,target=/pnpm/store \
    pnpm install --frozen-lockfile --prod --ignore-scripts --store-dir /pnpm/store

FROM base AS build
COPY --from=manifests /app ./
# Downloads every package into the cache before the sources arrive; the install below then links
# from it, so a source edit does not fetch the registry again.
RUN --mount=type=cache,id=agentic-rag-pnpm,target=/pnpm/store \
    pnpm fetch --frozen-lockfile --store-dir /pnpm/store
COPY . .
RUN --mount=type=cache,id=agentic-rag-pnpm,target=/pnpm/store \
    pnpm install --frozen-lockfile --offline --store-dir /pnpm/store
# Each workspace package's dist/, without the type declarations nothing reads at run time.
RUN mkdir /out \
    && for package in apps/* packages/*; do \
         if [ -d "$package/dist" ]; then mkdir -p "/out/$package" && cp -R "$package/dist" "/out/$package/"; fi; \
       done \
    && find /out \( -name '*.d.ts' -o -name '*.d.ts.map' -o -name '*.tsbuildinfo' \) -delete

FROM node:20-bookworm-slim AS runtime
# HOST=0.0.0.0: in a container the port is published, not reached on loopback. DATA_DIR holds the
# first start's admin key (and the embedded database when DATABASE_URL is unset). The sample corpus
# is not in the image, so it is not ingested at start.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    DATA_DIR=/data \
    AGENTIC_RAG_INGEST_ON_START=false
WORKDIR /app
RUN mkdir /data && chown 1000:1000 /data
COPY --from=prod-deps /app ./
COPY --from=build /out ./
COPY migrations ./migrations
COPY deploy/docker-entrypoint.sh deploy/healthcheck.mjs ./deploy/
# The image's `node` user; numeric, so an orchestrator's runAsNonRoot can verify it. The code stays
# root-owned and read-only to it; only /data is its own.
USER 1000:1000
# API; the worker's /metrics and /healthz; MCP over HTTP.
EXPOSE 4000 9465 4100
# Checks the API; a worker or MCP container passes its role (compose.yaml does for the worker).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD ["node", "/app/deploy/healthcheck.mjs", "api"]
ENTRYPOINT ["/bin/sh", "/app/deploy/docker-entrypoint.sh"]
CMD ["api"]
