# The third-party headers nearly every file includes, parsed once per target instead of once per
# file (docs/adr/0095): nlohmann/json (about 2 s of g++ per file that includes it, in 204 of the
# build's 439 files) and cpp-httplib with OpenSSL's headers (about 1 s, 104 files). Native builds
# only: the Wasm SDK's core is a handful of files, and the fuzz build is clang's with sanitizers.
# A target of one or two files (a benchmark) gains nothing from a precompiled header of its own.
function(svc_precompile_headers target)
  if(EMSCRIPTEN OR SVC_FUZZ)
    return()
  endif()
  target_precompile_headers(${target} PRIVATE
    <nlohmann/json.hpp> ${ARGN}
    <algorithm> <chrono> <functional> <map> <memory> <mutex> <optional> <string> <string_view> <vector>)
endfunction()
