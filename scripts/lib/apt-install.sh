#!/usr/bin/env bash
# apt_install NAME PACKAGE...: installs the Debian packages that are missing, quietly; does nothing when all are
# present and runs apt-get update only before an install. Uses sudo -n when not root. Exits 1 with the end of
# apt's output and a one-line reason, prefixed with NAME, when it cannot install. Sourced by scripts/install-*.sh.

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q '^install ok installed$'; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi
}

apt_install() {
  local name=$1 package
  shift
  local missing=()
  for package in "$@"; do
    installed "$package" || missing+=("$package")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0

  fail() {
    echo "$name: cannot install ${missing[*]}: $1" >&2
    exit 1
  }
  command -v apt-get >/dev/null || fail 'apt-get not found (a Debian or Ubuntu system is needed)'
  [ "$(id -u)" -eq 0 ] || command -v sudo >/dev/null || fail 'not root and sudo is not available'

  echo "$name: installing ${missing[*]}"
  local apt_log
  apt_log=$(mktemp)
  if ! as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >"$apt_log" 2>&1 \
    || ! as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >>"$apt_log" 2>&1; then
    tail -n 20 "$apt_log" >&2
    rm -f "$apt_log"
    fail 'apt-get failed (output above)'
  fi
  rm -f "$apt_log"
  for package in "${missing[@]}"; do
    installed "$package" || fail "$package is still not installed after apt-get"
  done
}
