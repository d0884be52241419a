#!/usr/bin/env bash
# Installs SimpleSAMLphp (Debian/Ubuntu, apt), the SAML 2.0 identity provider test/modules/delegation logs in
# through as an upstream. The test runs it under its own Apache (mod_php) from a configuration it writes;
# Debian's package may bring and start a system Apache, which the tests never use, so it is stopped.
# Idempotent and quiet: does nothing when all are present.
set -euo pipefail
source "$(dirname "$0")/lib/apt-install.sh"

if ! installed simplesamlphp || ! installed libapache2-mod-php || ! installed php-xml; then
  apt_install install-simplesamlphp simplesamlphp libapache2-mod-php php-xml
  as_root service apache2 stop >/dev/null 2>&1 || true
fi
