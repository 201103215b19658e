#!/usr/bin/env bash
# Installs the Debian packages the test suite needs (PostgreSQL, Redis, Chromium, CJK fonts),
# only those missing, so it is quick on a machine that already has them.
set -euo pipefail

need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for pkg in postgresql redis-server chromium fonts-noto-cjk; do
  have_pkg "$pkg" || need+=("$pkg")
done
if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "missing Debian packages: ${need[*]} (run as root or install them: apt-get install ${need[*]})" >&2
  exit 1
fi
echo "installing Debian packages: ${need[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
