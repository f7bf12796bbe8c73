#!/usr/bin/env bash
# Keycloak's distribution (org.keycloak:keycloak-quarkus-dist from Maven Central, pinned here) for
# the end-to-end single sign-on tests, unpacked into tools/keycloak/dist; a no-op when it is there.
# It runs on Java 21 or later: the newest JDK under /usr/lib/jvm is written to java-home for the tests.
set -euo pipefail
cd "$(dirname "$0")"
version=26.7.3
if [ ! -x "dist/keycloak-$version/bin/kc.sh" ]; then
  rm -rf dist download
  mvn -q dependency:copy -Dartifact="org.keycloak:keycloak-quarkus-dist:$version:zip" -DoutputDirectory=download
  mkdir -p dist
  unzip -q "download/keycloak-quarkus-dist-$version.zip" -d dist
  rm -rf download
fi
java_home=""
for candidate in /usr/lib/jvm/*; do
  [ -x "$candidate/bin/java" ] || continue
  major="$("$candidate/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
  if [ "${major:-0}" -ge 21 ]; then java_home="$candidate"; fi
done
if [ -z "$java_home" ]; then
  echo "Keycloak needs Java 21 or later; none under /usr/lib/jvm" >&2
  exit 1
fi
echo "$java_home" > java-home
echo "Keycloak $version at tools/keycloak/dist/keycloak-$version, on $java_home"
