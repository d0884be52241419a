#!/usr/bin/env bash
# Installs Debian's Chromium (and one font, so pages render text) for the login page tests in
# test/modules/login/, which drive it headless through playwright-core. Idempotent and quiet: does nothing when
# both are present.
set -euo pipefail
source "$(dirname "$0")/lib/apt-install.sh"

apt_install install-chromium chromium fonts-dejavu-core
