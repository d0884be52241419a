#!/usr/bin/env bash
# Installs Debian's redis-server (7.x; it brings redis-cli) for the Redis tests, which start their own
# redis-server processes on free loopback ports in temp dirs: standalone, and three masters made into a
# Redis Cluster. Idempotent and quiet: does nothing when it is present. Debian's postinst may start a
# system redis-server on port 6379; the tests never use it, so it is stopped.
set -euo pipefail
source "$(dirname "$0")/lib/apt-install.sh"

if ! installed redis-server || ! installed redis-tools; then
  apt_install install-redis redis-server redis-tools
  as_root service redis-server stop >/dev/null 2>&1 || true
fi
