#pragma once
// Prometheus' own checker (Debian's `prometheus` package), run on what svc exposes or ships.
#include <cstdio>
#include <cstdlib>
#include <string>

namespace svc::test {

inline bool havePromtool() { return std::system("command -v promtool >/dev/null 2>&1") == 0; }

// promtool's verdict for `arguments` ("check metrics < FILE", "check rules FILE"): empty when clean.
inline std::string promtool(const std::string& arguments) {
    std::string command = "promtool " + arguments + " 2>&1";
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) return "cannot run promtool";
    std::string output;
    char buffer[4096];
    while (size_t got = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, got);
    int status = ::pclose(pipe);
    return status == 0 ? std::string() : "exit " + std::to_string(status) + ": " + output;
}

}  // namespace svc::test
