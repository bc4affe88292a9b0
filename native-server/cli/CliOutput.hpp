#pragma once
// How every command answers: JSON on stdout, a refusal on stderr as "svc-server: error: ...".
#include <nlohmann/json.hpp>

#include "core/Error.hpp"

namespace svc {

class CliOutput {
public:
    // Prints the refusal; returns exit code 1.
    static int fail(const Error& error);
    static void print(const nlohmann::ordered_json& json);
};

}  // namespace svc
