#!/usr/bin/env bash
# Installs the real CAS clients that test/clients/ runs against tessera (Debian/Ubuntu, apt):
# Apache mod_auth_cas, phpCAS (+ php-cli, php-xml for its DOM parser), Perl Authen::CAS::Client and AuthCAS,
# and openssl, which makes the certificate of the TLS front the tests put before tessera.
# Idempotent and quiet: does nothing when every package is present; runs apt-get update only before an install.
set -euo pipefail

# apache2-bin, not apache2: the tests run Apache from their own config; the apache2 package would also
# enable and start a system-wide Apache on port 80.
packages=(
  apache2-bin libapache2-mod-auth-cas
  php-cli php-xml php-curl php-cas
  libauthen-cas-client-perl libauthcas-perl
  openssl
)

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q '^install ok installed$'; }

missing=()
for package in "${packages[@]}"; do
  installed "$package" || missing+=("$package")
done
[ "${#missing[@]}" -eq 0 ] && exit 0

fail() {
  echo "install-cas-clients: cannot install ${missing[*]}: $1" >&2
  exit 1
}
command -v apt-get >/dev/null || fail 'apt-get not found (a Debian or Ubuntu system is needed)'
apt=(env DEBIAN_FRONTEND=noninteractive apt-get)
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || fail 'not root and sudo is not available'
  apt=(sudo -n "${apt[@]}")
fi

echo "install-cas-clients: installing ${missing[*]}"
apt_log=$(mktemp)
trap 'rm -f "$apt_log"' EXIT
if ! "${apt[@]}" update -qq >"$apt_log" 2>&1 \
  || ! "${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}" >>"$apt_log" 2>&1; then
  tail -n 20 "$apt_log" >&2
  fail 'apt-get failed (output above)'
fi
for package in "${missing[@]}"; do
  installed "$package" || fail "$package is still not installed after apt-get"
done
