#!/usr/bin/env bash
# Install the Debian packages the test suite drives: Chromium (browser tests) and
# PostgreSQL (storage tests). Never downloads a browser of its own.
set -u
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v pg_ctlcluster >/dev/null 2>&1 || [ -d /usr/lib/postgresql ] || need+=(postgresql)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "note: missing Debian packages: ${need[*]} (not root or no apt-get); tests that need them will skip" >&2
  exit 0
fi
echo "installing Debian packages: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null 2>&1 || true
if ! apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; then
  echo "warning: could not install ${need[*]}; tests that need them will skip" >&2
fi
exit 0
