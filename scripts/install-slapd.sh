#!/usr/bin/env bash
# Installs OpenLDAP's slapd and ldap-utils (Debian/Ubuntu, apt) for the LDAP tests, which start their
# own slapd on a loopback port with a throwaway database. Idempotent and quiet: does nothing when both
# are present. Debian's postinst starts a system slapd on port 389; the tests do not use it, so it is stopped.
set -euo pipefail

packages=(slapd ldap-utils)
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q '^install ok installed$'; }

missing=()
for package in "${packages[@]}"; do
  installed "$package" || missing+=("$package")
done
[ "${#missing[@]}" -eq 0 ] && exit 0

fail() {
  echo "install-slapd: cannot install ${missing[*]}: $1" >&2
  exit 1
}
command -v apt-get >/dev/null || fail 'apt-get not found (a Debian or Ubuntu system is needed)'
apt=(env DEBIAN_FRONTEND=noninteractive apt-get)
service=(service)
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || fail 'not root and sudo is not available'
  apt=(sudo -n "${apt[@]}")
  service=(sudo -n service)
fi

echo "install-slapd: installing ${missing[*]}"
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
"${service[@]}" slapd stop >/dev/null 2>&1 || true
