#include "shop/ShopRegistration.hpp"

#include "text/BoundedJson.hpp"
#include "text/StringUtil.hpp"
#include "text/Utf8.hpp"

namespace svc {
namespace {

using nlohmann::json;

Result<const json*> member(const json& object, const std::string& parent, const char* key, json::value_t type, const char* expected) {
    std::string field = parent.empty() ? key : parent + "." + key;
    auto found = object.find(key);
    if (found == object.end() || found->is_null()) return Error::invalidArgument(field + ": required");
    if (found->type() != type) return Error::invalidArgument(field + ": must be " + expected);
    return &*found;
}

Result<std::string> text(const json& object, const std::string& parent, const char* key) {
    auto value = member(object, parent, key, json::value_t::string, "a string");
    if (!value) return value.error();
    std::string field = parent + "." + key;
    std::string content = (*value)->get<std::string>();
    if (trim(content).empty()) return Error::invalidArgument(field + ": must not be empty");
    if (content.size() > kMaxRegistrationTextLength) {
        return Error::invalidArgument(field + ": longer than " + std::to_string(kMaxRegistrationTextLength) + " characters");
    }
    for (char c : content) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return Error::invalidArgument(field + ": contains control characters");
    }
    return content;
}

Result<std::string> url(const json& object, const std::string& parent, const char* key) {
    auto value = member(object, parent, key, json::value_t::string, "an absolute http(s) URL");
    if (!value) return value.error();
    std::string content = (*value)->get<std::string>();
    if (auto status = validateAbsoluteHttpUrl(content, parent + "." + key); !status) return status.error();
    return content;
}

// Nesting is checked before anything recurses over the value (dump, storage): a body of
// thousands of nested arrays must not cost the stack. Recursion here stops at the limit.
bool nestedDeeperThan(const json& value, int limit) {
    if (!value.is_structured()) return false;
    if (limit == 0) return true;
    for (const auto& child : value) {
        if (nestedDeeperThan(child, limit - 1)) return true;
    }
    return false;
}

template <typename T>
Status into(Result<T> parsed, T& field) {
    if (!parsed) return parsed.error();
    field = std::move(*parsed);
    return Status::success();
}

}  // namespace

Status validateAbsoluteHttpUrl(const std::string& url, const std::string& field) {
    std::string lower = toLower(url);
    size_t schemeEnd = lower.find("://");
    std::string scheme = schemeEnd == std::string::npos ? "" : lower.substr(0, schemeEnd);
    if (scheme != "http" && scheme != "https") return Error::invalidArgument(field + ": must be an absolute http(s) URL");
    if (url.size() > kMaxRegistrationUrlLength) {
        return Error::invalidArgument(field + ": longer than " + std::to_string(kMaxRegistrationUrlLength) + " characters");
    }
    for (char c : url) {
        if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) return Error::invalidArgument(field + ": contains spaces or control characters");
    }
    size_t authorityEnd = url.find_first_of("/?#", schemeEnd + 3);
    std::string authority = url.substr(schemeEnd + 3, authorityEnd == std::string::npos ? std::string::npos : authorityEnd - schemeEnd - 3);
    // User information would be sent along by the fetcher and shown to operators: credentials
    // have no place in an announced URL (the shop authenticates svc by the two headers).
    if (authority.find('@') != std::string::npos) return Error::invalidArgument(field + ": must not contain user information");
    std::string host = authority.substr(0, authority.rfind(':') == std::string::npos || authority.back() == ']' ? std::string::npos : authority.rfind(':'));
    if (host.empty() || host == "[]") return Error::invalidArgument(field + ": must be an absolute http(s) URL with a host");
    return Status::success();
}

Result<ShopRegistration> parseShopRegistration(std::string_view body) {
    if (findInvalidUtf8(body) != std::string_view::npos) return Error::invalidArgument("body: not valid UTF-8");
    auto parsed = BoundedJson::parse(body, "body");
    if (!parsed) return parsed.error();
    return shopRegistrationFromJson(*parsed);
}

Result<ShopRegistration> shopRegistrationFromJson(const json& body) {
    if (!body.is_object()) return Error::invalidArgument("body: must be a JSON object with api, plugin and shop");
    ShopRegistration record;
    auto api = member(body, "", "api", json::value_t::object, "an object");
    if (!api) return api.error();
    if (auto s = into(url(**api, "api", "attributes"), record.attributesUrl); !s) return s.error();
    if (auto s = into(url(**api, "api", "products"), record.productsUrl); !s) return s.error();
    if (auto s = into(url(**api, "api", "variantDimensions"), record.variantDimensionsUrl); !s) return s.error();

    auto plugin = member(body, "", "plugin", json::value_t::object, "an object");
    if (!plugin) return plugin.error();
    if (auto s = into(text(**plugin, "plugin", "version"), record.pluginVersion); !s) return s.error();
    if (auto config = (*plugin)->find("config"); config != (*plugin)->end() && !config->is_null()) {
        if (!config->is_object()) return Error::invalidArgument("plugin.config: must be an object");
        if (nestedDeeperThan(*config, kMaxPluginConfigDepth)) {
            return Error::invalidArgument("plugin.config: nested deeper than " + std::to_string(kMaxPluginConfigDepth) + " levels");
        }
        if (config->dump().size() > kMaxPluginConfigBytes) {
            return Error::invalidArgument("plugin.config: larger than " + std::to_string(kMaxPluginConfigBytes) + " bytes");
        }
        record.pluginConfig = *config;
    }

    auto shop = member(body, "", "shop", json::value_t::object, "an object");
    if (!shop) return shop.error();
    if (auto s = into(text(**shop, "shop", "software"), record.shopSoftware); !s) return s.error();
    if (auto s = into(url(**shop, "shop", "url"), record.shopUrl); !s) return s.error();
    if (auto s = into(text(**shop, "shop", "version"), record.shopVersion); !s) return s.error();
    return record;
}

json toJson(const ShopRegistration& registration) {
    json plugin{{"version", registration.pluginVersion}};
    if (registration.pluginConfig) plugin["config"] = *registration.pluginConfig;
    return json{
        {"api", {{"attributes", registration.attributesUrl}, {"products", registration.productsUrl},
                 {"variantDimensions", registration.variantDimensionsUrl}}},
        {"plugin", plugin},
        {"shop", {{"software", registration.shopSoftware}, {"url", registration.shopUrl}, {"version", registration.shopVersion}}},
    };
}

}  // namespace svc
