#pragma once
// Minimal JSON writing for hot paths (one call per feed row), where building an
// nlohmann::json tree would cost more than the row itself.
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace svc {

void appendJsonString(std::string& out, std::string_view text);
std::string jsonStringArray(const std::vector<std::string>& items);
std::string jsonStringObject(const std::map<std::string, std::string>& entries);

}  // namespace svc
