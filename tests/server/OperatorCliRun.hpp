#pragma once
// Runs `svc-server operator <command> --data-dir DIR --email EMAIL` as an operator does, the
// password in SVC_OPERATOR_PASSWORD, on the data dir's stores (TestStorage.hpp); gives the exit
// code and what it wrote to stderr.
#include <stdlib.h>

#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "ChildProcess.hpp"
#include "TestStorage.hpp"

namespace svc::test {

inline std::pair<int, std::string> runOperatorCli(const std::string& command, const std::string& dataDir, const std::string& email,
                                                  const std::string& password) {
    setenv("SVC_OPERATOR_PASSWORD", password.c_str(), 1);
    std::string err = dataDir + "/operator-cli-stderr.txt";
    ChildProcess child(TestStorage::withDatabaseUrl({"/bin/sh", "-c", "exec \"$0\" \"$@\" 2>\"" + err + "\"", SVC_SERVER_BINARY, "operator",
                                                     command, "--data-dir", dataDir, "--email", email}),
                       dataDir + "/operator-cli-stdout.txt");
    int code = child.wait();
    unsetenv("SVC_OPERATOR_PASSWORD");
    std::ifstream file(err);
    std::stringstream text;
    text << file.rdbuf();
    return {code, text.str()};
}

}  // namespace svc::test
