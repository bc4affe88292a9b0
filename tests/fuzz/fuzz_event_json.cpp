// POST /events bodies come from any browser: the parser must turn every input into
// events or problems (never a crash), keep its answer bounded, accept again exactly what it
// accepted once, and never accept money that svc cannot book (docs/adr/0055): every line's
// price x amount, its commission at 100 % and the order's total within the limit. The same
// input also goes to the parser of the shop's word on an order (PUT /orders/{orderid}).
#include <cstdint>
#include <optional>
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
        for (const auto& line : purchase->lines) out["products"].push_back({{"sku", line.sku}, {"amount", line.amount}, {"price", line.price.cents()}});
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

// Money svc books must add up within the limit, checked (a wrap would hide here too).
void checkMoney(const std::vector<svc::OrderLine>& lines, const svc::EventLimits& limits) {
    std::optional<svc::Cents> total = svc::Cents(0);
    for (const auto& line : lines) {
        auto gross = line.price.times(line.amount);
        if (!gross || *gross > limits.maxOrderTotal || !gross->share(10000)) __builtin_trap();
        total = total->plus(*gross);
        if (!total) __builtin_trap();
    }
    if (*total > limits.maxOrderTotal) __builtin_trap();
}

void checkProblems(const std::vector<svc::EventProblem>& problems, size_t problemCount, const svc::EventLimits& limits) {
    if (problems.size() > limits.maxProblems || problemCount < problems.size()) __builtin_trap();
    for (const auto& problem : problems) {
        // Problems are sent back as JSON: they must be valid UTF-8 whatever the input was.
        if (problem.message.rfind(problem.path + ": ", 0) != 0) __builtin_trap();
        if (svc::findInvalidUtf8(problem.message) != std::string_view::npos) __builtin_trap();
        if (problem.rule.empty() || problem.expected.empty()) __builtin_trap();
    }
}

void fuzzConfirmation(std::string_view text, const svc::EventLimits& limits) {
    auto parsed = svc::parseOrderConfirmation(text, limits);
    if (parsed.ok() != parsed.problems.empty()) __builtin_trap();
    checkProblems(parsed.problems, parsed.problemCount, limits);
    if (!parsed.ok()) return;
    const auto& word = parsed.confirmation;
    if (word.source == svc::ClaimSource::ShopRejected && (!word.lines.empty() || word.claim || word.cid)) __builtin_trap();
    if (word.source == svc::ClaimSource::ShopConfirmed && word.lines.empty() == !word.claim) __builtin_trap();
    checkMoney(word.lines, limits);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    svc::EventLimits limits;
    fuzzConfirmation(text, limits);
    auto parsed = svc::parseEvents(text, limits);
    if (parsed.ok() != parsed.problems.empty()) __builtin_trap();
    if (!parsed.ok() && !parsed.events.events.empty()) __builtin_trap();
    checkProblems(parsed.problems, parsed.problemCount, limits);
    if (!parsed.ok()) return 0;
    if (parsed.events.events.empty() || parsed.events.events.size() > limits.maxBatchEvents) __builtin_trap();
    for (const auto& event : parsed.events.events) {
        if (const auto* purchase = std::get_if<svc::PurchaseEvent>(&event)) checkMoney(purchase->lines, limits);
    }
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
