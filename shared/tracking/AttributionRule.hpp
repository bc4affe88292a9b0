#pragma once
// Which widget interaction earned an order line (spec point 4: only products bought through
// widgets qualify). Pure: the caller reads the shopper's interactions and the catalog.
//
// The rule (docs/adr/0021): a line is attributed when the same anonymous _svc_cid clicked or
// added to cart, through a widget, the line's SKU, its main SKU, or a set containing its main
// SKU, at most `window` before the order and before it in arrival order. Views never earn.
// When several interactions qualify, the last one wins (last touch), as in most
// affiliate programmes: it is the one that led to the order.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tracking/TrackingEvent.hpp"

namespace svc {

enum class AttributionReason { Sku, MainSku, Set };
std::string_view attributionReasonName(AttributionReason reason);

// A click or add-to-cart as attribution sees it.
struct Interaction {
    int64_t sequence = 0;    // arrival order (the events table's sequence)
    int64_t receivedAt = 0;  // Unix seconds, the server's clock
    WidgetEventType type = WidgetEventType::Click;
    std::string sku;         // as the widget reported it (a variant's or a main SKU); may be empty
    std::string mainSku;     // the catalog's main SKU of `sku`; empty when unknown
    std::string setId;       // the set the interaction was in; may be empty
    WidgetType widget = WidgetType::Set;
    Touchpoint touchpoint = Touchpoint::Product;
    std::string testGroup;
    std::string variant;
};

struct Attribution {
    const Interaction* interaction = nullptr;
    AttributionReason reason = AttributionReason::Sku;
};

class AttributionRule {
public:
    // `setContains(setId, mainSku)`: whether a set holds the product (custom sets, generated sets).
    using SetMembership = std::function<bool(const std::string& setId, const std::string& mainSku)>;

    AttributionRule(int64_t windowSeconds, SetMembership setContains)
        : windowSeconds_(windowSeconds), setContains_(std::move(setContains)) {}

    // The interaction that earned the line, if any. `interactions` are the order's cid's, any order.
    std::optional<Attribution> attribute(const std::string& lineSku, const std::string& lineMainSku, int64_t orderSequence,
                                         int64_t orderedAt, const std::vector<Interaction>& interactions) const;

private:
    std::optional<AttributionReason> reasonFor(const Interaction& interaction, const std::string& lineSku,
                                               const std::string& lineMainSku) const;
    int64_t windowSeconds_;
    SetMembership setContains_;
};

}  // namespace svc
