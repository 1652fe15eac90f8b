#!/usr/bin/env bash
# The Debian programs that the system tier and CI's outside checks drive, by group:
#   tests      npm run test:system: Postfix as a relay, swaks (with Perl's TLS binding, which swaks only
#              recommends, for --tls) as a sending MTA, Chromium for /docs, promtool on a scrape
#   scale-out  npm run scale-out: nginx in front of the API processes
#   failover   npm run failover: etcd, Patroni, HAProxy and the Postgres its nodes run (Debian 12's)
#   prometheus npm run prometheus-check: a real Prometheus server
# `bash scripts/system-packages.sh [group…]` (all groups when none is named) checks each program. When
# something is missing: as root it installs the packages (no service is started meanwhile); otherwise it
# prints the exact apt-get line and exits 1. It never skips: a check that needs a program gets it or fails.
# `npm test` needs none of this.
set -euo pipefail

groups=("$@")
[ "${#groups[@]}" -gt 0 ] || groups=(tests scale-out failover prometheus)

missing=()
need() { # need PACKAGE TEST-COMMAND...
  local pkg=$1
  shift
  "$@" >/dev/null 2>&1 || missing+=("$pkg")
}
for g in "${groups[@]}"; do
  case "$g" in
    tests)
      need chromium test -x /usr/bin/chromium
      need prometheus test -x /usr/bin/promtool
      need swaks test -x /usr/bin/swaks
      need libnet-ssleay-perl perl -MNet::SSLeay -e 1
      need postfix test -x /usr/sbin/postfix
      ;;
    scale-out)
      need nginx test -x /usr/sbin/nginx
      ;;
    failover)
      need patroni test -x /usr/bin/patroni
      need etcd-server test -x /usr/bin/etcd
      need etcd-client test -x /usr/bin/etcdctl
      need haproxy test -x /usr/sbin/haproxy
      need postgresql-15 test -x /usr/lib/postgresql/15/bin/pg_rewind
      ;;
    prometheus)
      need prometheus test -x /usr/bin/prometheus
      ;;
    *)
      echo "system-packages: unknown group '$g' (tests, scale-out, failover, prometheus)" >&2
      exit 2
      ;;
  esac
done
# one package may serve two groups
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | awk 'NF && !seen[$0]++')
[ "${#missing[@]}" -eq 0 ] && exit 0

line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" != 0 ]; then
  echo "system-packages: missing Debian packages for ${groups[*]}: ${missing[*]}" >&2
  echo "  run as root: apt-get update && $line" >&2
  exit 1
fi

echo "system-packages: installing ${missing[*]}" >&2
# No package may start a system service meanwhile (prometheus would take port 9090, nginx port 80).
own_policy=0
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\n# written by scripts/system-packages.sh while it installs\nexit 101\n' >/usr/sbin/policy-rc.d
  chmod 755 /usr/sbin/policy-rc.d
  own_policy=1
fi
trap 'if [ "$own_policy" = 1 ]; then rm -f /usr/sbin/policy-rc.d; fi' EXIT
# Postfix installs without questions as "Local only"; the tests run their own instance in a temporary directory.
if [[ " ${missing[*]} " == *" postfix "* ]]; then
  echo "postfix postfix/main_mailer_type select Local only" | debconf-set-selections
  echo "postfix postfix/mailname string example.test" | debconf-set-selections
fi
apt-get update
DEBIAN_FRONTEND=noninteractive $line
