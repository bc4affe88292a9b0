#pragma once
// The shop registration record (spec "Shop registration record", endpoint 6): the three
// product-data endpoints a shop plugin announces, the plugin and the shop. Parsed field by
// field from the PUT body; every error names the field ("api.products: must be an absolute
// http(s) URL"). What is stored and echoed is this record, re-serialised: unknown fields of
// the body are ignored, so a newer plugin's extra fields neither fail nor get stored.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/Result.hpp"

namespace svc {

struct ShopRegistration {
    std::string attributesUrl;         // api.attributes
    std::string productsUrl;           // api.products
    std::string variantDimensionsUrl;  // api.variantDimensions
    std::string pluginVersion;         // plugin.version
    std::optional<nlohmann::json> pluginConfig;  // plugin.config: an object, kept as given
    std::string shopSoftware;          // shop.software
    std::string shopUrl;               // shop.url
    std::string shopVersion;           // shop.version

    bool operator==(const ShopRegistration&) const = default;
};

// Limits that keep a stored record small: the body itself is limited by the route.
constexpr size_t kMaxRegistrationUrlLength = 2048;
constexpr size_t kMaxRegistrationTextLength = 200;
constexpr size_t kMaxPluginConfigBytes = 16 * 1024;
constexpr int kMaxPluginConfigDepth = 16;

// From the request body's text (a JSON object).
Result<ShopRegistration> parseShopRegistration(std::string_view body);
Result<ShopRegistration> shopRegistrationFromJson(const nlohmann::json& body);
// The record as the response and the store hold it: {api, plugin, shop}.
nlohmann::json toJson(const ShopRegistration& registration);

// Absolute http(s) URL with a host and without user information, spaces or control
// characters; the error names `field`. Shared with the plugin endpoints' paging URLs.
Status validateAbsoluteHttpUrl(const std::string& url, const std::string& field);

}  // namespace svc
