# syntax=docker/dockerfile:1
# tessera's container image. Stage 1 builds the workspace and writes the server with its production
# dependencies only (scripts/deploy-production.sh, which the test suite also runs); stage 2 is Node
# with that tree, owned by root and run as the unprivileged `node` user.
#   docker build -t tessera .
#   docker run -p 8080:8080 -v ./tessera.yaml:/etc/tessera/tessera.yaml:ro tessera

ARG NODE_IMAGE=node:20.20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
# Dependencies first, from the lockfile alone, so this layer is reused until the lockfile changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN npx --yes pnpm@10.34.8 fetch
COPY . .
RUN npx --yes pnpm@10.34.8 install --frozen-lockfile --offline \
 && npx tsc -b packages/cli-server \
 && scripts/deploy-production.sh /out

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    TESSERA_SERVER__HOST=0.0.0.0
COPY --from=build /out /app
# The working directory is the one place the server writes: the generated key files (tokens.keyFile,
# login.keyFile: relative by default) land here. Mount a volume on it to keep keys. (A demo run,
# without --config, keeps its keys in the node user's ~/.local/state/tessera instead.)
RUN mkdir -p /var/lib/tessera /etc/tessera && chown node:node /var/lib/tessera
WORKDIR /var/lib/tessera
USER node
EXPOSE 8080
# `tessera health` reads the configuration and TESSERA_* variables as the server does, so it asks
# /health/live on the port and scheme the server listens on (server.port, server.tls, admin.port).
# Mount the configuration at the path below, or override HEALTHCHECK with the same --config as CMD.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "/app/dist/main.js", "health", "--config", "/etc/tessera/tessera.yaml"]
# Node runs as PID 1 and handles SIGTERM itself: requests in flight finish, then it exits 0.
ENTRYPOINT ["node", "/app/dist/main.js"]
CMD ["start", "--config", "/etc/tessera/tessera.yaml"]
