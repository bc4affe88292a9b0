// Shop plugins send JSON to svc twice: the registration body (PUT /shops/...) and the answers of
// their endpoints (attributes, variant dimensions, product pages). Any input is refused with an
// error value or accepted; a registration survives a round trip unchanged, and every mapped
// product is a record with one value per column that writes as one CSV record.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "feed/CsvWriter.hpp"
#include "feed/PluginProductMapper.hpp"
#include "shop/ShopRegistration.hpp"
#include "text/Utf8.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    if (auto registration = svc::parseShopRegistration(text)) {
        auto again = svc::shopRegistrationFromJson(svc::toJson(*registration));
        if (!again || !(*again == *registration)) __builtin_trap();
    }

    auto answer = nlohmann::json::parse(text, nullptr, false);
    if (answer.is_discarded()) return 0;
    std::string error = svc::pluginErrorText(answer);
    if (svc::findInvalidUtf8(error) != std::string::npos || error.size() > 300) __builtin_trap();

    // The same document as an attributes answer, then as a product page against fixed columns.
    nlohmann::json dimensions{{"data", nlohmann::json::array()}};
    if (auto own = svc::PluginProductMapper::create(answer, dimensions, false)) {
        if (own->header().size() < own->attributes().size()) __builtin_trap();
    }
    nlohmann::json attributes{{"data", {{{"name", "size"}}, {{"name", "material"}}, {{"name", "color"}}}}};
    nlohmann::json sizes{{"data", {{{"name", "size"}}}}};
    for (bool delta : {false, true}) {
        auto mapper = svc::PluginProductMapper::create(attributes, sizes, delta);
        if (!mapper) __builtin_trap();
        int64_t offset = answer.is_object() && answer.contains("offset") && answer["offset"].is_number_integer() ? answer["offset"].get<int64_t>() : 0;
        auto page = svc::parsePluginProductPage(answer, offset, 1000);
        if (!page) continue;
        for (size_t i = 0; i < page->data->size(); ++i) {
            auto record = mapper->map((*page->data)[i], "data[" + std::to_string(i) + "]");
            if (!record) continue;
            if (record->size() != mapper->header().size() || record->front().empty()) __builtin_trap();
            std::string csv;
            svc::appendCsvRecord(csv, *record);
            if (csv.empty() || csv.back() != '\n') __builtin_trap();
        }
    }
    return 0;
}
