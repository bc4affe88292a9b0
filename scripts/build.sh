#!/usr/bin/env bash
# Builds svc-server, the tests and the Wasm SDK. Incremental: a warm build of an
# unchanged tree takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc)}

if [[ ! -f build/CMakeCache.txt ]]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build build -j "$JOBS"

# emcc's optimizer needs Debian's node modules (acorn); see docs/adr/0002.
export NODE_PATH=/usr/share/nodejs
if [[ ! -f build-wasm/CMakeCache.txt ]]; then
  emcmake cmake -S . -B build-wasm -DCMAKE_BUILD_TYPE=Release -DSVC_ASSETS_OUT="$PWD/build/share/svc/sdk" >/dev/null
fi
cmake --build build-wasm -j "$JOBS"
