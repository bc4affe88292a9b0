#include "sdk/WidgetEventLog.hpp"

#include "text/JsonWriter.hpp"

namespace svc {

bool WidgetEventLog::acceptableText(const std::string& text) {
    if (text.empty() || text.size() > 200) return false;
    for (char c : text) {
        auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7F) return false;
    }
    return true;
}

bool WidgetEventLog::record(WidgetEventType type, const WidgetSpec& widget, const std::string& sku, const std::string& setId,
                            const EventContext& context) {
    if (widget.type == WidgetType::SetCompose || events_.size() >= kMaxQueued) return false;
    if (!acceptableText(context.cid)) return false;
    bool hasSku = acceptableText(sku);
    bool hasSet = acceptableText(setId);
    // A click or add-to-cart names its product; a view names the widget's product or its set.
    if (!hasSku && (type != WidgetEventType::View || !hasSet)) return false;
    std::string json = "{\"type\":";
    appendJsonString(json, widgetEventTypeName(type));
    auto field = [&json](const char* name, const std::string& value) {
        if (!acceptableText(value)) return;
        json += ",\"";
        json += name;
        json += "\":";
        appendJsonString(json, value);
    };
    field("cid", context.cid);
    field("sid", context.sid);
    field("widget", std::string(widgetTypeName(widget.type)));
    field("touchpoint", std::string(touchpointName(widget.touchpoint)));
    field("sku", sku);
    field("setId", setId);
    field("testGroup", context.testGroup);
    field("variant", context.variant);
    events_.push_back(json + "}");
    return true;
}

std::vector<std::string> WidgetEventLog::drain() {
    std::vector<std::string> bodies;
    size_t next = 0;
    while (next < events_.size()) {
        std::string body = "{\"events\":[";
        size_t count = 0;
        // At least one event per body (each is far below the byte limit), then up to both limits.
        while (next < events_.size() && count < kMaxEventsPerBody &&
               (count == 0 || body.size() + events_[next].size() + 3 <= kMaxBodyBytes)) {
            if (count > 0) body += ',';
            body += events_[next++];
            ++count;
        }
        bodies.push_back(body + "]}");
    }
    events_.clear();
    return bodies;
}

}  // namespace svc
