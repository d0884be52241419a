#!/usr/bin/env bash
# Installs the OpenID Connect relying party that test/clients/ runs against tessera's oidc module
# (Debian/Ubuntu, apt): Apache mod_auth_openidc, beside mod_auth_cas (install-cas-clients.sh) for the
# test where one browser session opens both. Idempotent and quiet: does nothing when it is present.
set -euo pipefail
source "$(dirname "$0")/lib/apt-install.sh"

apt_install install-oidc-clients apache2-bin libapache2-mod-auth-openidc
