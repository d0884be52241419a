#!/usr/bin/env bash
# Installs the real CAS clients that test/clients/ runs against tessera (Debian/Ubuntu, apt):
# Apache mod_auth_cas, phpCAS (+ php-cli, php-xml for its DOM parser; libapache2-mod-php for phpCAS in
# proxy mode, whose callback Apache serves over HTTPS), Perl Authen::CAS::Client (+ LWP's HTTPS support)
# and AuthCAS. Each client talks to tessera's own HTTPS listener.
# Idempotent and quiet: does nothing when every package is present.
set -euo pipefail
source "$(dirname "$0")/lib/apt-install.sh"

# apache2-bin, not apache2: the tests run Apache from their own config; the apache2 package would also
# enable and start a system-wide Apache on port 80.
apt_install install-cas-clients \
  apache2-bin libapache2-mod-auth-cas \
  php-cli php-xml php-curl php-cas libapache2-mod-php \
  libauthen-cas-client-perl liblwp-protocol-https-perl libauthcas-perl
