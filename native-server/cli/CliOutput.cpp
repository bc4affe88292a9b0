#include "cli/CliOutput.hpp"

#include <iostream>

namespace svc {

int CliOutput::fail(const Error& error) {
    std::cerr << "svc-server: error: " << error.message << "\n";
    return 1;
}

void CliOutput::print(const nlohmann::ordered_json& json) { std::cout << json.dump(2) << std::endl; }

}  // namespace svc
