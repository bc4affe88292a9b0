#pragma once
// JSON forms of templates, custom sets and photo sets: what the authoring endpoints
// and CLI accept and return. Parsing refuses anything malformed with a message that
// names the field ("sets[2].skus[0]: must be a non-empty string").
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/Result.hpp"
#include "sets/CustomSet.hpp"
#include "sets/SetTemplate.hpp"

namespace svc {

// `where` prefixes messages ("" for a top-level object, "sets[2]" inside a file).
Result<SetTemplate> setTemplateFromJson(const nlohmann::json& json, const std::string& where = "");
Result<CustomSet> customSetFromJson(const nlohmann::json& json, const std::string& where = "");
Result<PhotoSet> photoSetFromJson(const nlohmann::json& json, const std::string& where = "");
nlohmann::json toJson(const SetTemplate& setTemplate);
nlohmann::json toJson(const CustomSet& set);
nlohmann::json toJson(const PhotoSet& set);

// A file of content: {"templates": [...], "customSets": [...], "photoSets": [...]}, every key optional.
struct SetFile {
    std::vector<SetTemplate> templates;
    std::vector<CustomSet> customSets;
    std::vector<PhotoSet> photoSets;
};
Result<SetFile> setFileFromJson(const std::string& text);

}  // namespace svc
