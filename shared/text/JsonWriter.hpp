#pragma once
// Minimal JSON writing for hot paths (one call per feed row), where building an
// nlohmann::json tree would cost more than the row itself.
#include <string>
#include <string_view>
#include <vector>

namespace svc {

void appendJsonString(std::string& out, std::string_view text);
std::string jsonStringArray(const std::vector<std::string>& items);

}  // namespace svc
