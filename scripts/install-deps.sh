#!/usr/bin/env bash
# Installs everything svc needs on a Debian 12 machine. Idempotent and quick when
# everything is present: apt-get runs only for missing packages, npm ci only when
# the lock file changed since the last install.
# `install-deps.sh --demo` installs only what `make demo` builds and runs (no browsers, fuzzers,
# test servers or test tooling): a fresh machine reaches its first page sooner.
set -euo pipefail
cd "$(dirname "$0")/.."
demo_only=false
[[ ${1:-} == --demo ]] && demo_only=true

DEMO_PACKAGES=(
  cmake g++ make pkg-config
  emscripten            # em++ 3.1.6 + binaryen for the Wasm SDK
  nodejs npm            # emcc's optimizer and the console's vendored chart library
  libsqlite3-dev
  libcurl4-openssl-dev
  libstb-dev
  zlib1g-dev
  nlohmann-json3-dev
  libcpp-httplib-dev
  libcli11-dev
  libsodium-dev
  libpq-dev             # svc-server links libpq (the PostgreSQL backend, docs/adr/0086)
)
DEBIAN_PACKAGES=(
  cmake g++ make pkg-config
  emscripten            # em++ 3.1.6 + binaryen for the Wasm SDK
  nodejs npm            # emcc's optimizer and the test tooling
  libsqlite3-dev sqlite3
  libcurl4-openssl-dev  # outbound fetches (feed pulls, images)
  libstb-dev            # image decoding, thumbnails (docs/adr/0037)
  zlib1g-dev            # .csv.gz feeds pulled over FTP
  vsftpd                # FTP server the feed pull tests start on loopback
  openssh-server        # sshd + ssh-keygen: the SFTP server the feed pull tests start on loopback
  nlohmann-json3-dev
  libcpp-httplib-dev
  doctest-dev
  libcli11-dev
  libsodium-dev
  chromium              # e2e browser; Playwright cannot download its own here
  firefox-esr           # e2e/engines: Firefox through puppeteer-core's WebDriver BiDi (docs/adr/0076)
  webkit2gtk-driver     # e2e/engines: WebKitWebDriver + MiniBrowser, WebKitGTK (Safari's engine)
  xvfb                  # the X display WebKitGTK needs, started by the suite itself
  clang-14 libclang-rt-14-dev  # libFuzzer targets
  wrk                   # HTTP benchmarks
  prometheus            # promtool: the hostile suite checks /metrics' exposition format
  systemd               # systemd-analyze verifies the package's unit
  nginx openssl         # the HTTPS edge test: deploy/nginx/svc.conf in front of svc, a test CA (docs/adr/0068)
  libnss3-tools         # certutil: the NSS database in which the edge test's Chromium trusts that CA
  curl jq               # docs/examples/push-feed.sh, run by FeedExamplesTest as a shop would
  libpq-dev             # svc-server links libpq (the PostgreSQL backend, docs/adr/0086)
  postgresql            # PostgreSQL 15: the store suite starts a throwaway server of its own (tests/support/ThrowawayPostgres.hpp)
  haproxy               # the cluster suite's balancer: deploy/haproxy/svc.cfg in front of three nodes (docs/adr/0091)
)

$demo_only && DEBIAN_PACKAGES=("${DEMO_PACKAGES[@]}")
missing=()
for package in "${DEBIAN_PACKAGES[@]}"; do
  # node/npm may come from elsewhere (e.g. nodesource); accept the commands.
  if [[ $package == nodejs ]] && command -v node >/dev/null; then continue; fi
  if [[ $package == npm ]] && command -v npm >/dev/null; then continue; fi
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  # Packages with a service (nginx, vsftpd, sshd, postgresql, haproxy) must not start it: nginx's default site would take
  # port 80 on a test machine. Debian's invoke-rc.d asks /usr/sbin/policy-rc.d; exit 101 means
  # "not now". Put there only for this install when there is none (containers ship their own).
  policy=/usr/sbin/policy-rc.d
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\n# scripts/install-deps.sh: no service starts while svc installs its test tools\nexit 101\n' | $SUDO tee $policy >/dev/null
    $SUDO chmod 755 $policy
    trap '$SUDO rm -f $policy' EXIT  # also when the install fails
  fi
  # PostgreSQL's package would create and start a "main" cluster on port 5432; the tests start their
  # own server in a temp dir. Debian's createcluster.conf reads createcluster.d/: no main cluster.
  if [[ " ${missing[*]} " == *" postgresql "* ]]; then
    $SUDO mkdir -p /etc/postgresql-common/createcluster.d
    printf '# scripts/install-deps.sh: svc tests start their own PostgreSQL; no main cluster\ncreate_main_cluster = false\n' |
      $SUDO tee /etc/postgresql-common/createcluster.d/svc-no-main-cluster.conf >/dev/null
  fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # A service that would start at the next boot is switched off too; the tests start their own
  # nginx, PostgreSQL and haproxy with their own configuration on loopback ports (e2e/support/edge.js,
  # ThrowawayPostgres, tests/cluster).
  for service in nginx postgresql haproxy; do
    if [[ " ${missing[*]} " == *" $service "* ]] && command -v systemctl >/dev/null && [[ -d /run/systemd/system ]]; then
      $SUDO systemctl disable --now $service >/dev/null 2>&1 || true
    fi
  done
fi

# npm packages (Playwright, graphql-js, csv-spectrum, ...) live in e2e/.
stamp=e2e/node_modules/.svc-lock-stamp
if ! $demo_only && { [[ ! -f $stamp ]] || ! cmp -s e2e/package-lock.json "$stamp"; }; then
  echo "install-deps: npm ci in e2e/"
  (cd e2e && npm ci --no-audit --no-fund --loglevel=error)
  cp e2e/package-lock.json "$stamp"
fi

# The API contract tools (redocly, Ajv, Apollo Client, relay-compiler; docs/adr/0084, 0085), apart from e2e/'s
# packages so that each lock file changes for one reason.
stamp=e2e/api-tools/node_modules/.svc-lock-stamp
if ! $demo_only && { [[ ! -f $stamp ]] || ! cmp -s e2e/api-tools/package-lock.json "$stamp"; }; then
  echo "install-deps: npm ci in e2e/api-tools/"
  (cd e2e/api-tools && npm ci --no-audit --no-fund --loglevel=error)
  cp e2e/api-tools/package-lock.json "$stamp"
fi

# The console's chart library (uPlot), copied into the build and served by svc itself: the
# console never loads anything from another origin (docs/adr/0042).
stamp=native-server/console-vendor/node_modules/.svc-lock-stamp
if [[ ! -f $stamp ]] || ! cmp -s native-server/console-vendor/package-lock.json "$stamp"; then
  echo "install-deps: npm ci in native-server/console-vendor/"
  (cd native-server/console-vendor && npm ci --no-audit --no-fund --loglevel=error)
  cp native-server/console-vendor/package-lock.json "$stamp"
fi
