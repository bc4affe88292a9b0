#include "widget/WidgetContent.hpp"

#include <nlohmann/json.hpp>

#include "text/JsonReader.hpp"

namespace svc {

std::string ContentResponse::toJson() const {
    nlohmann::json body;
    body["currency"] = currency;
    body["locale"] = locale;
    body["language"] = language;
    nlohmann::json& textObject = body["texts"] = nlohmann::json::object();
    for (size_t k = 0; k < kTextKeyCount; ++k) textObject[WidgetTexts::nameOf(static_cast<TextKey>(k))] = texts.get(static_cast<TextKey>(k));
    body["widgets"] = nlohmann::json::array();
    auto itemJson = [](const ContentItem& item) {
        nlohmann::json entry{{"sku", item.sku}, {"mainSku", item.mainSku}, {"name", item.name},
                             {"brand", item.brand}, {"url", item.url}, {"image", item.image}, {"price", item.price}};
        if (item.retailPrice) entry["retailPrice"] = *item.retailPrice;
        if (item.lowestPrice30Days) entry["lowestPrice30Days"] = *item.lowestPrice30Days;
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
        if (!widget.description.empty()) content["description"] = widget.description;
        body["widgets"].push_back(std::move(content));
    }
    return body.dump();
}

namespace {

// Reads with the SDK's small JsonReader, not nlohmann: this is the SDK's only JSON input
// and nlohmann dominated the size of sdk.wasm (docs/adr/0018). toJson above runs on the server only.
bool readString(const JsonValue& object, const char* key, std::string& out) {
    auto value = object.stringMember(key);
    if (!value) return false;
    out = std::move(*value);
    return true;
}

Result<ContentItem> readItem(const JsonValue& entry, const std::string& itemPath) {
    ContentItem item;
    if (!entry.isObject() || !readString(entry, "sku", item.sku) || !readString(entry, "name", item.name) ||
        !readString(entry, "url", item.url)) {
        return Error::invalidArgument(itemPath + ": needs string sku, name and url");
    }
    readString(entry, "mainSku", item.mainSku);
    readString(entry, "brand", item.brand);
    readString(entry, "image", item.image);
    const JsonValue* price = entry.find("price");
    if (!price || !price->isInteger()) {
        return Error::invalidArgument(itemPath + ".price: must be an integer number of cents");
    }
    item.price = *price->integer();
    const JsonValue* retail = entry.find("retailPrice");
    if (retail && retail->isInteger()) item.retailPrice = *retail->integer();
    const JsonValue* lowest = entry.find("lowestPrice30Days");
    if (lowest && lowest->isInteger()) item.lowestPrice30Days = *lowest->integer();
    return item;
}

}  // namespace

Result<ContentResponse> ContentResponse::fromJson(const std::string& text) {
    auto body = JsonReader::parse(text);
    if (!body || !body->isObject()) return Error::invalidArgument("content: not a JSON object");
    ContentResponse response;
    readString(*body, "currency", response.currency);
    readString(*body, "locale", response.locale);
    readString(*body, "language", response.language);
    // Texts come from the operator through the server; unknown keys (a newer server) are skipped.
    if (const JsonValue* texts = body->find("texts"); texts && texts->isObject()) {
        for (const auto& [name, value] : texts->members()) {
            auto key = WidgetTexts::keyNamed(name);
            if (key && value.isString()) response.texts.set(*key, value.text());
        }
    }
    const JsonValue* widgets = body->find("widgets");
    if (!widgets || !widgets->isArray()) return Error::invalidArgument("content.widgets: must be an array");
    for (size_t w = 0; w < widgets->items().size(); ++w) {
        const JsonValue& widget = widgets->items()[w];
        std::string path = "content.widgets[" + std::to_string(w) + "]";
        if (!widget.isObject()) return Error::invalidArgument(path + ": must be an object");
        const JsonValue* items = widget.find("items");
        if (!items || !items->isArray()) return Error::invalidArgument(path + ".items: must be an array");
        WidgetContent content;
        readString(widget, "setId", content.setId);
        readString(widget, "title", content.title);
        readString(widget, "image", content.image);
        readString(widget, "description", content.description);
        for (size_t i = 0; i < items->items().size(); ++i) {
            const JsonValue& entry = items->items()[i];
            std::string itemPath = path + ".items[" + std::to_string(i) + "]";
            auto item = readItem(entry, itemPath);
            if (!item) return item.error();
            if (const JsonValue* alternatives = entry.find("alternatives")) {
                if (!alternatives->isArray()) return Error::invalidArgument(itemPath + ".alternatives: must be an array");
                for (size_t a = 0; a < alternatives->items().size(); ++a) {
                    auto alternative = readItem(alternatives->items()[a], itemPath + ".alternatives[" + std::to_string(a) + "]");
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
