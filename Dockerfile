# syntax=docker/dockerfile:1
#
# One image per process, chosen by the APP build argument:
#
#   docker build --build-arg APP=oneroster -t edu-platform/oneroster .
#
# APP is one of identity (3000), oneroster (3001), alerts (3002), webhook-dispatcher (3003),
# roster-sync (3004).
# The identity image also carries the migration runner:
#
#   docker run --rm -e DATABASE_URL=... edu-platform/identity \
#     node tools/runtime/run-dist.js libs/persistence/src/cli/migrate

# The Node.js major of engines (package.json) and of CI (.node-version).
ARG NODE_IMAGE=node:24-bookworm-slim
ARG APP=identity

# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS base
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false

# ---------------------------------------------------------------------------------------------
# build: every dependency (the compiler is a dev dependency), then `tsc` into dist/.
# Install scripts are skipped: the build needs none of them (they fetch or link native
# binaries for local tooling such as the embedded PostgreSQL used by `npm start`).
FROM base AS build
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY . .
RUN npm run build

# ---------------------------------------------------------------------------------------------
# prune: production dependencies only. Optional packages are left out too: they are the
# embedded PostgreSQL binaries (local development only) and a native msgpack accelerator
# that BullMQ replaces with its pure JavaScript path.
FROM base AS prune
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --ignore-scripts \
 && npm cache clean --force

# ---------------------------------------------------------------------------------------------
# runtime: compiled code, production node_modules and the small runtime loader. Files stay
# owned by root, so the unprivileged process cannot change its own code.
FROM base AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0
COPY --from=prune /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json tsconfig.base.json ./
COPY tools/runtime ./tools/runtime

FROM runtime AS app-identity
ENV APP=identity PORT=3000
EXPOSE 3000
CMD ["node", "tools/runtime/run-dist.js", "apps/identity/src/main"]

FROM runtime AS app-oneroster
ENV APP=oneroster PORT=3001
EXPOSE 3001
# The flags of tools/runtime/node-flags.js for this entry point.
CMD ["node", "--max-semi-space-size=64", "--no-allocation-site-pretenuring", "tools/runtime/run-dist.js", "apps/oneroster/src/main"]

FROM runtime AS app-alerts
ENV APP=alerts PORT=3002
EXPOSE 3002
# The flags of tools/runtime/node-flags.js for this entry point.
CMD ["node", "--max-semi-space-size=64", "tools/runtime/run-dist.js", "apps/alerts/src/main"]

# Health and metrics only; no public API.
FROM runtime AS app-webhook-dispatcher
ENV APP=webhook-dispatcher PORT=3003
EXPOSE 3003
CMD ["node", "tools/runtime/run-dist.js", "apps/webhook-dispatcher/src/main"]

# Roster sync worker: the oneroster app's second entry point (SIS pulls, SFTP drop, imports).
# Port 3004 serves /health/* and /metrics; its SFTP endpoint listens on 2222 (ROSTER_SFTP_PORT).
FROM runtime AS app-roster-sync
ENV APP=roster-sync PORT=3004
EXPOSE 3004
# The flags of tools/runtime/node-flags.js for this entry point.
CMD ["node", "--max-semi-space-size=64", "tools/runtime/run-dist.js", "apps/oneroster/src/sources/worker/main"]

# ---------------------------------------------------------------------------------------------
# final: the stage named by APP. An unknown APP fails the build (no stage of that name).
FROM app-${APP} AS final
ARG APP
LABEL org.opencontainers.image.title="edu-platform ${APP}"
# The `node` user of the base image, by number so that Kubernetes can verify runAsNonRoot.
USER 1000:1000
# Slim images have no curl: ask node itself. Liveness only (dependencies are readiness).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || '3000') + '/health/live', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
