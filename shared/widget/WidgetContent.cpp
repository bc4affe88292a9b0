#include "widget/WidgetContent.hpp"

#include <algorithm>
#include <string_view>

#include "text/JsonReader.hpp"
#include "text/JsonWriter.hpp"

namespace svc {

namespace {

// Written as text straight away: an answer is every content request's work, and a JSON tree
// of it cost a tenth of the server's CPU (ADR 0080). Members in name order, as before.
void appendMember(std::string& out, bool& first, std::string_view name) {
    if (!first) out += ',';
    first = false;
    appendJsonString(out, name);
    out += ':';
}

void appendItem(std::string& out, const ContentItem& item) {
    bool first = true;
    out += '{';
    if (!item.alternatives.empty()) {
        appendMember(out, first, "alternatives");
        out += '[';
        for (size_t i = 0; i < item.alternatives.size(); ++i) {
            if (i) out += ',';
            appendItem(out, item.alternatives[i]);
        }
        out += ']';
    }
    appendMember(out, first, "brand");
    appendJsonString(out, item.brand);
    appendMember(out, first, "image");
    appendJsonString(out, item.image);
    if (item.lowestPrice30Days) {
        appendMember(out, first, "lowestPrice30Days");
        out += std::to_string(*item.lowestPrice30Days);
    }
    appendMember(out, first, "mainSku");
    appendJsonString(out, item.mainSku);
    appendMember(out, first, "name");
    appendJsonString(out, item.name);
    appendMember(out, first, "price");
    out += std::to_string(item.price);
    if (item.retailPrice) {
        appendMember(out, first, "retailPrice");
        out += std::to_string(*item.retailPrice);
    }
    appendMember(out, first, "sku");
    appendJsonString(out, item.sku);
    appendMember(out, first, "url");
    appendJsonString(out, item.url);
    out += '}';
}

// The text keys in name order (the order the texts object has always been written in).
const std::vector<TextKey>& textKeysByName() {
    static const std::vector<TextKey> keys = [] {
        std::vector<TextKey> all;
        for (size_t k = 0; k < kTextKeyCount; ++k) all.push_back(static_cast<TextKey>(k));
        std::sort(all.begin(), all.end(), [](TextKey a, TextKey b) { return std::string_view(WidgetTexts::nameOf(a)) < WidgetTexts::nameOf(b); });
        return all;
    }();
    return keys;
}

}  // namespace

std::string ContentResponse::toJson() const {
    std::string out;
    out.reserve(4096);
    bool first = true;
    out += '{';
    appendMember(out, first, "currency");
    appendJsonString(out, currency);
    appendMember(out, first, "language");
    appendJsonString(out, language);
    appendMember(out, first, "locale");
    appendJsonString(out, locale);
    appendMember(out, first, "texts");
    out += '{';
    bool firstText = true;
    for (TextKey key : textKeysByName()) {
        appendMember(out, firstText, WidgetTexts::nameOf(key));
        appendJsonString(out, texts.get(key));
    }
    out += '}';
    appendMember(out, first, "widgets");
    out += '[';
    for (size_t w = 0; w < widgets.size(); ++w) {
        const WidgetContent& widget = widgets[w];
        if (w) out += ',';
        bool firstMember = true;
        out += '{';
        if (!widget.description.empty()) {
            appendMember(out, firstMember, "description");
            appendJsonString(out, widget.description);
        }
        if (!widget.image.empty()) {
            appendMember(out, firstMember, "image");
            appendJsonString(out, widget.image);
        }
        appendMember(out, firstMember, "items");
        out += '[';
        for (size_t i = 0; i < widget.items.size(); ++i) {
            if (i) out += ',';
            appendItem(out, widget.items[i]);
        }
        out += ']';
        if (!widget.setId.empty()) {
            appendMember(out, firstMember, "setId");
            appendJsonString(out, widget.setId);
        }
        if (!widget.title.empty()) {
            appendMember(out, firstMember, "title");
            appendJsonString(out, widget.title);
        }
        out += '}';
    }
    out += "]}";
    return out;
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
