#pragma once
#include <string>
#include <vector>

namespace svc {

// Runs svc-server with its command line; returns the process exit code.
// 0 success, 1 the operation failed, 2 the command line is wrong.
int runCli(int argc, char** argv);

}  // namespace svc
