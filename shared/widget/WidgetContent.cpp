#include "widget/WidgetContent.hpp"

#include <nlohmann/json.hpp>

namespace svc {

std::string ContentResponse::toJson() const {
    nlohmann::json body;
    body["currency"] = currency;
    body["locale"] = locale;
    body["widgets"] = nlohmann::json::array();
    auto itemJson = [](const ContentItem& item) {
        nlohmann::json entry{{"sku", item.sku}, {"mainSku", item.mainSku}, {"name", item.name},
                             {"brand", item.brand}, {"url", item.url}, {"image", item.image}, {"price", item.price}};
        if (item.retailPrice) entry["retailPrice"] = *item.retailPrice;
        return entry;
    };
    for (const auto& widget : widgets) {
        nlohmann::json items = nlohmann::json::array();
        for (const auto& item : widget.items) {
            nlohmann::json entry = itemJson(item);
            if (!item.alternatives.empty()) {
                entry["alternatives"] = nlohmann::json::array();
                for (const auto& alternative : item.alternatives) entry["alternatives"].push_back(itemJson(alternative));
            }
            items.push_back(std::move(entry));
        }
        nlohmann::json content{{"items", std::move(items)}};
        if (!widget.setId.empty()) content["setId"] = widget.setId;
        if (!widget.title.empty()) content["title"] = widget.title;
        if (!widget.image.empty()) content["image"] = widget.image;
        body["widgets"].push_back(std::move(content));
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

Result<ContentItem> readItem(const nlohmann::json& entry, const std::string& itemPath) {
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
    return item;
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
        readString(widget, "setId", content.setId);
        readString(widget, "title", content.title);
        readString(widget, "image", content.image);
        for (size_t i = 0; i < items->size(); ++i) {
            std::string itemPath = path + ".items[" + std::to_string(i) + "]";
            auto item = readItem((*items)[i], itemPath);
            if (!item) return item.error();
            auto alternatives = (*items)[i].find("alternatives");
            if (alternatives != (*items)[i].end()) {
                if (!alternatives->is_array()) return Error::invalidArgument(itemPath + ".alternatives: must be an array");
                for (size_t a = 0; a < alternatives->size(); ++a) {
                    auto alternative = readItem((*alternatives)[a], itemPath + ".alternatives[" + std::to_string(a) + "]");
                    if (!alternative) return alternative.error();
                    item->alternatives.push_back(std::move(*alternative));
                }
            }
            content.items.push_back(std::move(*item));
        }
        response.widgets.push_back(std::move(content));
    }
    return response;
}

}  // namespace svc
