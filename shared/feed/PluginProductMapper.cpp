#include "feed/PluginProductMapper.hpp"

#include <algorithm>
#include <set>

#include "feed/FeedColumns.hpp"
#include "shop/ShopRegistration.hpp"
#include "text/StringUtil.hpp"
#include "text/Utf8.hpp"

namespace svc {
namespace {

using nlohmann::json;

// JSON keys of a product and the feed fields they fill, in header order.
struct BaseKey {
    const char* key;
    FeedField field;
    bool inDelta;  // a delta pull updates stock and prices only
};

constexpr BaseKey kBaseKeys[] = {
    {"sku", FeedField::Sku, true},
    {"mainSku", FeedField::MainSku, false},
    {"model", FeedField::Model, false},
    {"variant", FeedField::Variant, false},
    {"name", FeedField::Name, false},
    {"stock", FeedField::Stock, true},
    {"retailPrice", FeedField::RetailPrice, true},
    {"discountPrice", FeedField::DiscountPrice, true},
    {"lowestPrice30d", FeedField::LowestPrice30d, true},
    {"deeplink", FeedField::Deeplink, false},
    {"image", FeedField::Image, false},
    {"thumbnail", FeedField::Thumbnail, false},
    {"brand", FeedField::Brand, false},
    {"color", FeedField::Color, false},
    {"description", FeedField::Description, false},
    {"categories", FeedField::CategoryPaths, false},
};

Status plainText(const std::string& value, const std::string& field) {
    if (value.find('\0') != std::string::npos) return Error::invalidArgument(field + ": contains a NUL character");
    return Status::success();
}

// The names of an endpoint's {"data": [{"name": ...}, ...]} answer, checked.
Result<std::vector<std::string>> namesOf(const json& answer, const std::string& endpoint) {
    if (!answer.is_object()) return Error::invalidArgument(endpoint + ": the answer must be a JSON object with data");
    auto data = answer.find("data");
    if (data == answer.end() || !data->is_array()) return Error::invalidArgument(endpoint + ": data: required, an array");
    if (data->size() > kMaxPluginAttributes) {
        return Error::invalidArgument(endpoint + ": data: more than " + std::to_string(kMaxPluginAttributes) + " entries");
    }
    std::vector<std::string> names;
    std::set<std::string> seen;
    for (size_t i = 0; i < data->size(); ++i) {
        std::string field = endpoint + ": data[" + std::to_string(i) + "].name";
        const json& entry = (*data)[i];
        if (!entry.is_object()) return Error::invalidArgument(endpoint + ": data[" + std::to_string(i) + "]: must be an object with name");
        auto name = entry.find("name");
        if (name == entry.end() || !name->is_string()) return Error::invalidArgument(field + ": required, a string");
        std::string text = name->get<std::string>();
        if (trim(text).empty() || text != trim(text)) return Error::invalidArgument(field + ": must be non-empty without surrounding spaces");
        if (text.size() > kMaxPluginAttributeNameLength) {
            return Error::invalidArgument(field + ": longer than " + std::to_string(kMaxPluginAttributeNameLength) + " bytes");
        }
        for (char c : text) {
            if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return Error::invalidArgument(field + ": contains control characters");
        }
        if (!seen.insert(toLower(text)).second) return Error::invalidArgument(field + ": '" + text + "' is listed twice");
        names.push_back(std::move(text));
    }
    return names;
}

Result<std::string> stringValue(const json& value, const std::string& field) {
    if (!value.is_string()) return Error::invalidArgument(field + ": must be a string");
    std::string text = value.get<std::string>();
    if (auto status = plainText(text, field); !status) return status.error();
    return text;
}

Result<std::string> centsValue(const json& value, const std::string& field) {
    if (value.is_number_integer() && !(value.is_number_unsigned() && value.get<uint64_t>() > uint64_t(INT64_MAX))) {
        int64_t cents = value.get<int64_t>();
        if (cents >= 0) return std::to_string(cents);
    }
    if (value.is_number_float()) return Error::invalidArgument(field + ": must be an integer number of cents, not " + value.dump());
    return Error::invalidArgument(field + ": must be a non-negative integer number of cents");
}

Result<std::string> stockValue(const json& value, const std::string& field) {
    if (value.is_boolean()) return std::string(value.get<bool>() ? "1" : "0");
    if (value.is_number_integer() && !(value.is_number_unsigned() && value.get<uint64_t>() > uint64_t(INT64_MAX)) && value.get<int64_t>() >= 0) {
        return std::to_string(value.get<int64_t>());
    }
    return Error::invalidArgument(field + ": must be a non-negative integer quantity or a boolean");
}

Result<std::string> urlValue(const json& value, const std::string& field) {
    if (!value.is_string()) return Error::invalidArgument(field + ": must be an absolute http(s) URL");
    std::string text = value.get<std::string>();
    if (auto status = validateAbsoluteHttpUrl(text, field); !status) return status.error();
    return text;
}

Result<std::string> categoriesValue(const json& value, const std::string& field) {
    if (!value.is_array()) return Error::invalidArgument(field + ": must be an array of category paths");
    std::string joined;
    for (size_t i = 0; i < value.size(); ++i) {
        std::string place = field + "[" + std::to_string(i) + "]";
        auto path = stringValue(value[i], place);
        if (!path) return path.error();
        // Multi-value feed fields separate values by commas (spec CSV rule 3): a comma would split the path.
        if (path->find(',') != std::string::npos) return Error::invalidArgument(place + ": must not contain ','");
        if (trim(*path).empty()) continue;
        if (!joined.empty()) joined += ',';
        joined += *path;
    }
    return joined;
}

// Attribute values are text in the catalog: numbers and booleans as JSON writes them, lists comma-separated.
Result<std::string> attributeValue(const json& value, const std::string& field) {
    if (value.is_string()) return stringValue(value, field);
    if (value.is_number() || value.is_boolean()) return value.dump();
    if (value.is_array()) {
        std::string joined;
        for (size_t i = 0; i < value.size(); ++i) {
            const json& item = value[i];
            if (item.is_array() || item.is_object() || item.is_null()) {
                return Error::invalidArgument(field + "[" + std::to_string(i) + "]: must be a string, number or boolean");
            }
            auto text = attributeValue(item, field + "[" + std::to_string(i) + "]");
            if (!text) return text.error();
            if (i) joined += ',';
            joined += *text;
        }
        return joined;
    }
    return Error::invalidArgument(field + ": must be a string, number, boolean or an array of them");
}

Result<int64_t> nonNegativeInteger(const json& answer, const char* key) {
    auto found = answer.find(key);
    if (found == answer.end() || !found->is_number_integer()) return Error::invalidArgument(std::string(key) + ": required, a non-negative integer");
    if (found->is_number_unsigned() ? found->get<uint64_t>() > uint64_t(INT64_MAX) : found->get<int64_t>() < 0) {
        return Error::invalidArgument(std::string(key) + ": must be a non-negative integer");
    }
    return found->get<int64_t>();
}

}  // namespace

Result<PluginProductMapper> PluginProductMapper::create(const json& attributes, const json& variantDimensions, bool delta) {
    auto announced = namesOf(attributes, "attributes");
    if (!announced) return announced.error();
    auto dimensions = namesOf(variantDimensions, "variantDimensions");
    if (!dimensions) return dimensions.error();
    std::set<std::string> known;
    for (const auto& name : *announced) known.insert(name);
    for (size_t i = 0; i < dimensions->size(); ++i) {
        if (!known.count((*dimensions)[i])) {
            return Error::invalidArgument("variantDimensions: data[" + std::to_string(i) + "].name: '" + (*dimensions)[i] +
                                          "' is not announced by the attributes endpoint");
        }
    }
    PluginProductMapper mapper;
    mapper.delta_ = delta;
    mapper.dimensions_ = std::move(*dimensions);
    for (const auto& base : kBaseKeys) {
        if (!delta || base.inDelta) mapper.header_.emplace_back(feedFieldName(base.field));
    }
    if (!delta) {
        // An attribute named like a base column (color, brand, ...) would name that column twice:
        // base fields come as the product's own keys, so such attributes are not columns.
        for (auto& name : *announced) {
            if (feedFieldForColumn(name)) continue;
            mapper.attributes_.push_back(name);
            mapper.header_.push_back(name);
        }
    }
    return mapper;
}

Result<std::vector<std::string>> PluginProductMapper::map(const json& product, const std::string& path) const {
    if (!product.is_object()) return Error::invalidArgument(path + ": must be an object");
    std::vector<std::string> record;
    record.reserve(header_.size());
    auto value = [&](const char* key) -> const json* {
        auto found = product.find(key);
        return found == product.end() || found->is_null() ? nullptr : &*found;
    };
    for (const auto& base : kBaseKeys) {
        if (delta_ && !base.inDelta) continue;
        std::string field = path + "." + base.key;
        const json* given = value(base.key);
        if (!given) {
            if (base.field == FeedField::Sku) return Error::invalidArgument(field + ": required");
            record.emplace_back();
            continue;
        }
        Result<std::string> text = std::string();
        switch (base.field) {
            case FeedField::Stock: text = stockValue(*given, field); break;
            case FeedField::RetailPrice:
            case FeedField::DiscountPrice:
            case FeedField::LowestPrice30d: text = centsValue(*given, field); break;
            case FeedField::Deeplink:
            case FeedField::Image:
            case FeedField::Thumbnail: text = urlValue(*given, field); break;
            case FeedField::CategoryPaths: text = categoriesValue(*given, field); break;
            default: text = stringValue(*given, field); break;
        }
        if (!text) return text.error();
        if (base.field == FeedField::Sku) {
            if (trim(*text).empty()) return Error::invalidArgument(field + ": must not be empty");
            if (text->size() > kMaxPluginSkuLength) return Error::invalidArgument(field + ": longer than " + std::to_string(kMaxPluginSkuLength) + " bytes");
        }
        record.push_back(std::move(*text));
    }
    if (delta_) return record;

    const json* attributes = value("attributes");
    if (attributes && !attributes->is_object()) return Error::invalidArgument(path + ".attributes: must be an object");
    std::vector<std::string> values(attributes_.size());
    if (attributes) {
        for (const auto& [name, given] : attributes->items()) {
            std::string field = path + ".attributes." + name;
            size_t column = 0;
            while (column < attributes_.size() && attributes_[column] != name) ++column;
            if (column == attributes_.size()) {
                if (feedFieldForColumn(name)) continue;  // a base field's name: not a column (see create)
                return Error::invalidArgument(field + ": not announced by the attributes endpoint");
            }
            if (given.is_null()) continue;
            auto text = attributeValue(given, field);
            if (!text) return text.error();
            values[column] = std::move(*text);
        }
    }
    // Without a variant of its own, a product's variant is named by its variant dimensions ("M / Long").
    constexpr size_t variantIndex = 3;  // sku, mainSku, model, variant: kBaseKeys' order
    if (record[variantIndex].empty() && attributes) {
        std::string variant;
        for (const auto& dimension : dimensions_) {
            for (size_t column = 0; column < attributes_.size(); ++column) {
                if (attributes_[column] != dimension || values[column].empty()) continue;
                if (!variant.empty()) variant += " / ";
                variant += values[column];
            }
        }
        record[variantIndex] = std::move(variant);
    }
    for (auto& text : values) record.push_back(std::move(text));
    return record;
}

Result<PluginProductPage> parsePluginProductPage(const json& answer, int64_t requestedOffset, int64_t requestedLimit) {
    if (!answer.is_object()) return Error::invalidArgument("the answer must be a JSON object with limit, offset, total and data");
    PluginProductPage page;
    auto limit = nonNegativeInteger(answer, "limit");
    if (!limit) return limit.error();
    auto offset = nonNegativeInteger(answer, "offset");
    if (!offset) return offset.error();
    auto total = nonNegativeInteger(answer, "total");
    if (!total) return total.error();
    if (*offset != requestedOffset) {
        return Error::invalidArgument("offset: the answer is for offset " + std::to_string(*offset) + "; svc asked for " + std::to_string(requestedOffset));
    }
    auto data = answer.find("data");
    if (data == answer.end() || !data->is_array()) return Error::invalidArgument("data: required, an array of products");
    if (static_cast<int64_t>(data->size()) > requestedLimit) {
        return Error::invalidArgument("data: " + std::to_string(data->size()) + " products, more than the limit of " +
                                      std::to_string(requestedLimit) + " svc asked for");
    }
    page.limit = *limit;
    page.offset = *offset;
    page.total = *total;
    page.data = &*data;
    return page;
}

std::string pluginErrorText(const json& answer) {
    if (!answer.is_object()) return "";
    auto error = answer.find("error");
    if (error == answer.end() || !error->is_string()) return "";
    // The text reaches logs, JSON answers and the console: one line of at most 300 bytes,
    // each part cut at a character boundary so that it stays valid UTF-8.
    static constexpr size_t kMaxBytes = 300;
    std::string text;
    auto appendShopText = [&text](std::string_view from) {
        from = from.substr(0, utf8PrefixLength(from, kMaxBytes - std::min(text.size(), kMaxBytes)));
        for (char c : from) text += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? ' ' : c;
    };
    appendShopText(error->get_ref<const std::string&>());
    auto message = answer.find("message");
    if (message != answer.end() && message->is_string() && text.size() + 2 < kMaxBytes) {
        text += ": ";
        appendShopText(message->get_ref<const std::string&>());
    }
    return text;
}

}  // namespace svc
