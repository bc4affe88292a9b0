#include "tracking/AttributionRule.hpp"

namespace svc {

std::string_view attributionReasonName(AttributionReason reason) {
    switch (reason) {
        case AttributionReason::Sku: return "sku";
        case AttributionReason::MainSku: return "main-sku";
        case AttributionReason::Set: return "set";
    }
    return "sku";
}

std::optional<AttributionReason> AttributionRule::reasonFor(const Interaction& interaction, const std::string& lineSku,
                                                            const std::string& lineMainSku) const {
    if (interaction.type == WidgetEventType::View) return std::nullopt;
    if (!interaction.sku.empty() && interaction.sku == lineSku) return AttributionReason::Sku;
    if (!lineMainSku.empty()) {
        // The widget may report a main SKU or another size of the same article.
        if (interaction.sku == lineMainSku || (!interaction.mainSku.empty() && interaction.mainSku == lineMainSku)) {
            return AttributionReason::MainSku;
        }
        if (!interaction.setId.empty() && setContains_ && setContains_(interaction.setId, lineMainSku)) return AttributionReason::Set;
    }
    return std::nullopt;
}

std::optional<Attribution> AttributionRule::attribute(const std::string& lineSku, const std::string& lineMainSku, int64_t orderSequence,
                                                      int64_t orderedAt, const std::vector<Interaction>& interactions) const {
    std::optional<Attribution> best;
    for (const auto& interaction : interactions) {
        if (interaction.sequence >= orderSequence) continue;                    // after the order
        if (interaction.receivedAt < orderedAt - windowSeconds_) continue;       // outside the window
        if (best && best->interaction->sequence > interaction.sequence) continue;  // an earlier touch
        auto reason = reasonFor(interaction, lineSku, lineMainSku);
        if (reason) best = Attribution{&interaction, *reason};
    }
    return best;
}

}  // namespace svc
