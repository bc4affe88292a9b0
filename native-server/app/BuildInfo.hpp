#pragma once
// Which svc this is: `svc-server --version` and the svc_build_info metric. Filled in at build
// time by cmake/BuildInfo.cmake (version from CMakeLists.txt, commit and its date from git).
#include <string>

namespace svc {

struct BuildInfo {
    std::string version;  // the project's version, e.g. "0.19.0"
    std::string commit;   // abbreviated commit, "-modified" when built from a changed tree, or "unknown"
    std::string date;     // the commit's date (ISO 8601), or "unknown"
};

const BuildInfo& buildInfo();

}  // namespace svc
