// The SDK's one content request, GET /<apiId>/content?w=&t=&s=&i=..., is the busiest anonymous
// endpoint: its query string comes from anyone with a shop's API ID. Any input is refused with
// an error value or accepted; an accepted request holds at most kMaxWidgets widgets and survives
// a round trip through toQueryString unchanged.
#include <cstdint>
#include <string>

#include "widget/ContentRequest.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string query(reinterpret_cast<const char*>(data), size);
    auto widgets = svc::ContentRequest::fromQueryString(query);
    if (!widgets) {
        if (widgets.error().message.empty()) __builtin_trap();
        return 0;
    }
    if (widgets->empty() || widgets->size() > svc::ContentRequest::kMaxWidgets) __builtin_trap();
    auto again = svc::ContentRequest::fromQueryString(svc::ContentRequest::toQueryString(*widgets));
    if (!again || again->size() != widgets->size()) __builtin_trap();
    for (size_t i = 0; i < widgets->size(); ++i) {
        const auto& a = (*widgets)[i];
        const auto& b = (*again)[i];
        if (a.type != b.type || a.touchpoint != b.touchpoint || a.sku != b.sku || a.setId != b.setId) __builtin_trap();
    }
    return 0;
}
