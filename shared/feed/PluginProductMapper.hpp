#pragma once
// The shop plugin's JSON contract (docs/api/shop-plugin.md) mapped onto the product feed record,
// so plugin products go through the same importer as CSV feeds: the attributes and variant
// dimensions a plugin announces become the columns, each product one record. Pure: the caller
// fetches the JSON. Errors name the JSON path ("data[3].retailPrice: must be an integer number of cents").
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/Result.hpp"

namespace svc {

struct PluginProductPage {
    int64_t limit = 0;
    int64_t offset = 0;
    int64_t total = 0;
    const nlohmann::json* data = nullptr;  // the page's array of products (inside the parsed answer)
};

constexpr size_t kMaxPluginAttributes = 500;
constexpr size_t kMaxPluginAttributeNameLength = 64;
constexpr size_t kMaxPluginSkuLength = 200;

class PluginProductMapper {
public:
    // From the answers of the attributes and variantDimensions endpoints ({"data": [{"name": ...}]}).
    // `delta`: a stock and price update, mapped onto sku, stock and the prices only.
    static Result<PluginProductMapper> create(const nlohmann::json& attributes, const nlohmann::json& variantDimensions, bool delta);

    // The feed's header: base columns (by their feed names), then the announced attributes.
    const std::vector<std::string>& header() const { return header_; }
    const std::vector<std::string>& attributes() const { return attributes_; }
    const std::vector<std::string>& variantDimensions() const { return dimensions_; }

    // One product to one record aligned with header(); `path` names it in errors (e.g. "data[3]").
    Result<std::vector<std::string>> map(const nlohmann::json& product, const std::string& path) const;

private:
    PluginProductMapper() = default;

    bool delta_ = false;
    std::vector<std::string> attributes_;  // property columns, as announced
    std::vector<std::string> dimensions_;
    std::vector<std::string> header_;
};

// Checks a products page against the request that asked for it (offset and limit). Errors name
// the field ("offset: the answer is for offset 100; svc asked for 50").
Result<PluginProductPage> parsePluginProductPage(const nlohmann::json& answer, int64_t requestedOffset, int64_t requestedLimit);

// A plugin's error answer {error: AUTH_ERROR|GENERAL_ERROR|CONFIGURATION_ERROR, message} as one
// line for the import history ("AUTH_ERROR: token revoked"); empty when `answer` is not one.
// The message is cut to 300 bytes and stripped of control characters: it is the shop's text.
std::string pluginErrorText(const nlohmann::json& answer);

}  // namespace svc
