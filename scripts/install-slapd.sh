#!/usr/bin/env bash
# Installs OpenLDAP's slapd and ldap-utils (Debian/Ubuntu, apt) for the LDAP tests, which start their
# own slapd on a loopback port with a throwaway database. Idempotent and quiet: does nothing when all
# are present. Debian's postinst starts a system slapd on port 389; the tests do not use it, so it is stopped.
# openssl makes the throwaway CA and certificate of the StartTLS and ldaps:// tests.
set -euo pipefail
source "$(dirname "$0")/lib/apt-install.sh"

if ! installed slapd || ! installed ldap-utils; then
  apt_install install-slapd slapd ldap-utils
  as_root service slapd stop >/dev/null 2>&1 || true
fi
apt_install install-slapd openssl
