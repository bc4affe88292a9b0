#pragma once
// What the browser reports to POST /events (spec: "Purchase event payload", "Events"),
// after validation: a purchase, or a widget event that attribution later joins with
// purchases through the anonymous _svc_cid.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "money/Cents.hpp"
#include "widget/WidgetSpec.hpp"

namespace svc {

struct OrderLine {
    std::string sku;
    int64_t amount = 0;  // units, >= 1
    Cents price;         // gross unit price (not the line total), >= 0

    bool operator==(const OrderLine&) const = default;
};

struct PurchaseEvent {
    std::string orderId;             // unique per tenant: repeats are duplicates
    std::optional<std::string> cid;  // the _svc_cid, when the SDK knows it
    std::vector<OrderLine> lines;
    // customerid is not kept: the spec fixes it to "anonymous", and it is checked to be exactly
    // that so that no personal data slips into the store.

    bool operator==(const PurchaseEvent&) const = default;
};

enum class WidgetEventType { View, Click, AddToCart };
std::string_view widgetEventTypeName(WidgetEventType type);
std::optional<WidgetEventType> parseWidgetEventType(std::string_view text);

struct WidgetEvent {
    WidgetEventType type = WidgetEventType::View;
    std::string cid;
    std::optional<std::string> sid;  // the _svc_sid (one browsing session), when the SDK knows it
    WidgetType widget = WidgetType::Set;  // never SetCompose: demo widgets earn nothing
    Touchpoint touchpoint = Touchpoint::Product;
    std::optional<std::string> sku;  // the product shown or clicked; a view of a custom set may name only the set
    std::optional<std::string> setId;
    std::optional<std::string> testGroup;
    std::optional<std::string> variant;
    std::optional<int64_t> clientTimeMs;  // the browser's clock: informative, never used for ordering

    bool operator==(const WidgetEvent&) const = default;
};

using TrackingEvent = std::variant<PurchaseEvent, WidgetEvent>;

// One body of POST /events: a single event, or {"events": [...]}.
struct EventBatch {
    std::vector<TrackingEvent> events;
    bool batch = false;  // the body was {"events": [...]} (the answer lists one result per event)
};

// A stored purchase as the recommendation engine reads it (co-purchase learning).
struct PurchaseOrder {
    int64_t sequence = 0;   // arrival order within the store, increasing; the read cursor
    std::string orderId;
    int64_t receivedAt = 0; // Unix seconds, the server's clock
    std::vector<OrderLine> lines;

    bool operator==(const PurchaseOrder&) const = default;
};

}  // namespace svc
