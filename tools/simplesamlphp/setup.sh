#!/usr/bin/env bash
# SimpleSAMLphp from Debian's package, unpacked into tools/simplesamlphp/dist without installing it
# (the package would pull a web server in: the tests serve it with `php -S`); a no-op when it is
# there. PHP itself (php-cli, php-xml, php-mbstring) comes from .ci/run's apt-get.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -d dist/usr/share/simplesamlphp/www ]; then
  rm -rf dist download
  mkdir -p download
  apt-get update -qq
  (cd download && apt-get download -qq simplesamlphp)
  dpkg-deb -x download/simplesamlphp_*.deb dist
  rm -rf download
fi
modules="$(php -m 2>/dev/null || true)"
if ! grep -qx dom <<<"$modules" || ! grep -qx mbstring <<<"$modules"; then
  echo "SimpleSAMLphp needs PHP with its dom and mbstring modules: apt-get install php-cli php-xml php-mbstring" >&2
  exit 1
fi
echo "SimpleSAMLphp $(sed -n "s/.*const VERSION = '\(.*\)';/\1/p" dist/usr/share/simplesamlphp/lib/SimpleSAML/Configuration.php) at tools/simplesamlphp/dist"
