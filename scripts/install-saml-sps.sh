#!/usr/bin/env bash
# Installs the SAML 2.0 service providers that test/clients/ runs against tessera's saml2 module
# (Debian/Ubuntu, apt): the Shibboleth SP (Apache's mod_shib with its daemon shibd) and mod_auth_mellon.
# The tests run Apache and shibd from configurations they write; Debian's postinst may start a system
# shibd, which the tests never use, so it is stopped. Idempotent and quiet: does nothing when all are present.
set -euo pipefail
source "$(dirname "$0")/lib/apt-install.sh"

if ! installed libapache2-mod-shib || ! installed libapache2-mod-auth-mellon; then
  apt_install install-saml-sps apache2-bin libapache2-mod-shib libapache2-mod-auth-mellon
  as_root service shibd stop >/dev/null 2>&1 || true
fi
