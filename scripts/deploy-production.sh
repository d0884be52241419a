#!/usr/bin/env bash
# deploy-production.sh OUT: writes to OUT the built server (@tessera/cli-server's dist) with its
# production dependencies only, our workspace packages as copies holding only their dist (each
# package's "files"). Run after the build (tsc -b). The container image's build stage runs exactly
# this; test/run/production-deploy.test.ts runs it too and starts what it wrote.
# --legacy: pnpm 10 otherwise deploys only from workspaces with inject-workspace-packages.
set -euo pipefail
out=${1:?usage: scripts/deploy-production.sh OUT}
cd "$(dirname "$0")/.."
npx --yes pnpm@10.34.8 --filter @tessera/cli-server deploy --legacy --prod "$out"
