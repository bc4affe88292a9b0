#!/usr/bin/env bash
# Builds svc-server, the tests and the Wasm SDK. Incremental: a warm build of an
# unchanged tree takes seconds. `build.sh demo` builds only what `make demo` serves: the
# server, its assets (console, demo shop, loader) and the SDK; no tests, benchmarks or fuzzers.
set -euo pipefail
cd "$(dirname "$0")/.."
# Printed at the end: the gate's time budget counts the build too (README, "Tests").
trap 'echo "build: $SECONDS s"' EXIT
JOBS=${JOBS:-$(nproc)}
targets=()
[[ ${1:-} == demo ]] && targets=(--target svc-server svc_assets)
# ccache, when installed, makes rebuilds after a branch switch cheap; nothing requires it.
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)

if [[ ! -f build/CMakeCache.txt ]]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
fi
cmake --build build -j "$JOBS" "${targets[@]}"

# emcc's optimizer needs Debian's node modules (acorn); see docs/adr/0002.
export NODE_PATH=/usr/share/nodejs
if [[ ! -f build-wasm/CMakeCache.txt ]]; then
  emcmake cmake -S . -B build-wasm -DCMAKE_BUILD_TYPE=Release -DSVC_ASSETS_OUT="$PWD/build/share/svc/sdk" >/dev/null
fi
cmake --build build-wasm -j "$JOBS"

# `build.sh package` (and every full build, so `make test` tests the package it would ship):
# the Debian package, from the native and Wasm builds above.
if [[ ${1:-} != demo ]]; then
  (cd build && cpack -G DEB >/dev/null) && ls build/package/*.deb >/dev/null
fi
