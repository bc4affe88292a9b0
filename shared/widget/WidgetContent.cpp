#include "widget/WidgetContent.hpp"

#include <nlohmann/json.hpp>

namespace svc {

std::string ContentResponse::toJson() const {
    nlohmann::json body;
    body["currency"] = currency;
    body["locale"] = locale;
    body["widgets"] = nlohmann::json::array();
    for (const auto& widget : widgets) {
        nlohmann::json items = nlohmann::json::array();
        for (const auto& item : widget.items) {
            nlohmann::json entry{{"sku", item.sku}, {"mainSku", item.mainSku}, {"name", item.name},
                                 {"brand", item.brand}, {"url", item.url}, {"image", item.image}, {"price", item.price}};
            if (item.retailPrice) entry["retailPrice"] = *item.retailPrice;
            items.push_back(std::move(entry));
        }
        body["widgets"].push_back({{"items", std::move(items)}});
    }
    return body.dump();
}

namespace {

// Reads a string member; exceptions are off in the Wasm build, so every access is checked.
bool readString(const nlohmann::json& object, const char* key, std::string& out) {
    auto it = object.find(key);
    if (it == object.end() || !it->is_string()) return false;
    out = it->get<std::string>();
    return true;
}

}  // namespace

Result<ContentResponse> ContentResponse::fromJson(const std::string& text) {
    auto body = nlohmann::json::parse(text, nullptr, false);
    if (body.is_discarded() || !body.is_object()) return Error::invalidArgument("content: not a JSON object");
    ContentResponse response;
    readString(body, "currency", response.currency);
    readString(body, "locale", response.locale);
    auto widgets = body.find("widgets");
    if (widgets == body.end() || !widgets->is_array()) return Error::invalidArgument("content.widgets: must be an array");
    for (size_t w = 0; w < widgets->size(); ++w) {
        const auto& widget = (*widgets)[w];
        std::string path = "content.widgets[" + std::to_string(w) + "]";
        if (!widget.is_object()) return Error::invalidArgument(path + ": must be an object");
        auto items = widget.find("items");
        if (items == widget.end() || !items->is_array()) return Error::invalidArgument(path + ".items: must be an array");
        WidgetContent content;
        for (size_t i = 0; i < items->size(); ++i) {
            const auto& entry = (*items)[i];
            std::string itemPath = path + ".items[" + std::to_string(i) + "]";
            ContentItem item;
            if (!entry.is_object() || !readString(entry, "sku", item.sku) || !readString(entry, "name", item.name) ||
                !readString(entry, "url", item.url)) {
                return Error::invalidArgument(itemPath + ": needs string sku, name and url");
            }
            readString(entry, "mainSku", item.mainSku);
            readString(entry, "brand", item.brand);
            readString(entry, "image", item.image);
            auto price = entry.find("price");
            if (price == entry.end() || !price->is_number_integer()) {
                return Error::invalidArgument(itemPath + ".price: must be an integer number of cents");
            }
            item.price = price->get<int64_t>();
            auto retail = entry.find("retailPrice");
            if (retail != entry.end() && retail->is_number_integer()) item.retailPrice = retail->get<int64_t>();
            content.items.push_back(std::move(item));
        }
        response.widgets.push_back(std::move(content));
    }
    return response;
}

}  // namespace svc
