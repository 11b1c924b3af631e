# syntax=docker/dockerfile:1
# Quire's production image: the build stage installs the workspace and bundles each app with
# tooling/build/build.mjs; the runtime stage holds Node 24, dist/ (the bundles, which need no
# node_modules) and the start script, and runs as the unprivileged `node` user.
# apps/server/test/Process.test.ts runs this file's build RUN line and CMD, so they cannot drift.
#
#   docker build -t quire .
#   docker run -p 8080:8080 -v quire-data:/data quire            # embedded PostgreSQL in /data
#   docker compose up -d                                          # PostgreSQL, server and worker

FROM node:24-slim AS build
WORKDIR /src
# Dependencies first, from the lockfile alone, so source edits do not download them again.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN npx --yes pnpm@10.34.9 fetch
COPY . .
# No install scripts: the image has its own Node 24, so the `node` package's download is not needed.
RUN npx --yes pnpm@10.34.9 install --offline --frozen-lockfile --ignore-scripts
RUN node tooling/build/build.mjs

FROM node:24-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    QUIRE_DATA_DIR=/data
WORKDIR /app
# Git sync runs the git binary (https remotes need the CA certificates).
RUN apt-get update && apt-get install -y --no-install-recommends git ca-certificates && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/dist ./dist
COPY --from=build /src/tooling/build/start.sh ./tooling/build/start.sh
# The embedded database and file bytes (blobs/) live in /data, owned by the user that runs Quire.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Docker's stop sends SIGTERM: the server answers requests in flight, closes the database and exits 0.
STOPSIGNAL SIGTERM
CMD ["sh", "tooling/build/start.sh", "server"]
