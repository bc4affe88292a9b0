// POST /events bodies come from any browser: the parser must turn every input into
// events or problems (never a crash), keep its answer bounded, and accept again exactly
// what it accepted once.
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "text/Utf8.hpp"
#include "tracking/EventParser.hpp"

namespace {

nlohmann::json toJson(const svc::TrackingEvent& event) {
    nlohmann::json out;
    if (const auto* purchase = std::get_if<svc::PurchaseEvent>(&event)) {
        out = {{"type", "purchase"}, {"customerid", "anonymous"}, {"orderid", purchase->orderId}, {"products", nlohmann::json::array()}};
        if (purchase->cid) out["cid"] = *purchase->cid;
        for (const auto& line : purchase->lines) out["products"].push_back({{"sku", line.sku}, {"amount", line.amount}, {"price", line.price}});
        return out;
    }
    const auto& widget = std::get<svc::WidgetEvent>(event);
    out = {{"type", svc::widgetEventTypeName(widget.type)}, {"cid", widget.cid}, {"widget", svc::widgetTypeName(widget.widget)},
           {"touchpoint", svc::touchpointName(widget.touchpoint)}};
    if (widget.sku) out["sku"] = *widget.sku;
    if (widget.setId) out["setId"] = *widget.setId;
    if (widget.testGroup) out["testGroup"] = *widget.testGroup;
    if (widget.variant) out["variant"] = *widget.variant;
    if (widget.clientTimeMs) out["time"] = *widget.clientTimeMs;
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    svc::EventLimits limits;
    auto parsed = svc::parseEvents(text, limits);
    if (parsed.ok() != parsed.problems.empty()) __builtin_trap();
    if (!parsed.ok() && !parsed.events.events.empty()) __builtin_trap();
    if (parsed.problems.size() > limits.maxProblems || parsed.problemCount < parsed.problems.size()) __builtin_trap();
    for (const auto& problem : parsed.problems) {
        // Problems are sent back as JSON: they must be valid UTF-8 whatever the input was.
        if (problem.message.rfind(problem.path + ": ", 0) != 0) __builtin_trap();
        if (svc::findInvalidUtf8(problem.message) != std::string_view::npos) __builtin_trap();
        if (problem.rule.empty() || problem.expected.empty()) __builtin_trap();
    }
    if (!parsed.ok()) return 0;
    if (parsed.events.events.empty() || parsed.events.events.size() > limits.maxBatchEvents) __builtin_trap();
    nlohmann::json again;
    if (parsed.events.batch) {
        again["events"] = nlohmann::json::array();
        for (const auto& event : parsed.events.events) again["events"].push_back(toJson(event));
    } else {
        again = toJson(parsed.events.events.front());
    }
    auto reparsed = svc::parseEvents(again.dump(), limits);
    if (!reparsed.ok() || reparsed.events.events != parsed.events.events || reparsed.events.batch != parsed.events.batch) __builtin_trap();
    return 0;
}
