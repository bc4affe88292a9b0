#include "sdk/SdkController.hpp"

#include "money/MoneyFormatter.hpp"
#include "widget/ContentRequest.hpp"
#include "widget/WidgetContent.hpp"
#include "widget/WidgetRenderer.hpp"

namespace svc {

void SdkController::warnOnce(const std::string& message) {
    if (warned_.insert(message).second) dom_.warn("[svc] " + message);
}

void SdkController::finish(NodeId node, const char* state) {
    dom_.setAttribute(node, "data-svc-state", state);
    dom_.release(node);
}

ContentBatch SdkController::scan() {
    std::vector<std::pair<NodeId, WidgetSpec>> claimed;
    for (NodeId node : dom_.unclaimedWidgets()) {
        auto spec = WidgetSpec::fromAttributes([&](std::string_view name) { return dom_.attribute(node, name); });
        if (!spec) {
            dom_.hide(node);
            warnOnce("widget hidden: " + spec.error().message);
            finish(node, "invalid");
            continue;
        }
        if (claimed.size() >= ContentRequest::kMaxWidgets) {
            // Leave it unclaimed: the next scan takes it in a further request.
            break;
        }
        dom_.setAttribute(node, "data-svc-state", "loading");
        claimed.emplace_back(node, std::move(*spec));
    }
    if (claimed.empty()) return {};
    std::vector<WidgetSpec> specs;
    for (const auto& [node, spec] : claimed) specs.push_back(spec);
    ContentBatch batch{nextBatchId_++, ContentRequest::toQueryString(specs)};
    batches_[batch.id] = std::move(claimed);
    return batch;
}

void SdkController::applyContent(int batchId, const std::string& responseText) {
    auto batch = batches_.find(batchId);
    if (batch == batches_.end()) return;
    auto response = ContentResponse::fromJson(responseText);
    if (!response || response->widgets.size() != batch->second.size()) {
        std::string cause = response ? "content response has the wrong number of widgets" : response.error().message;
        failBatch(batchId, "content unavailable (" + cause + ")");
        return;
    }
    WidgetRenderer renderer(MoneyFormatter(response->currency, response->locale));
    auto& widgets = batch->second;
    for (size_t i = 0; i < widgets.size(); ++i) {
        const auto& [node, spec] = widgets[i];
        std::string html = renderer.render(spec, response->widgets[i]);
        if (html.empty()) {
            dom_.hide(node);
            finish(node, "empty");
            continue;
        }
        dom_.setContent(node, html);
        dom_.show(node);
        finish(node, "rendered");
    }
    batches_.erase(batch);
}

void SdkController::failBatch(int batchId, const std::string& cause) {
    auto batch = batches_.find(batchId);
    if (batch == batches_.end()) return;
    for (const auto& [node, spec] : batch->second) {
        dom_.hide(node);
        finish(node, "failed");
    }
    warnOnce(cause);
    batches_.erase(batch);
}

ContentBatch SdkController::updateWidgetSku(const std::string& widgetType, const std::string& sku) {
    auto type = parseWidgetType(widgetType);
    if (!type || *type == WidgetType::SetCompose) {
        warnOnce("updateWidgetSku: widgetId '" + widgetType + "' is not one of SET, SIMILAR, SET-Custom");
        return {};
    }
    if (sku.empty()) {
        warnOnce("updateWidgetSku: sku must be a non-empty string");
        return {};
    }
    for (NodeId node : dom_.claimedWidgetsOfType(widgetType)) {
        if (dom_.attribute(node, "data-svc-state") == std::optional<std::string>("loading")) {
            // Its earlier request may still answer; drop the node from that batch first.
            for (auto& [id, widgets] : batches_) {
                std::erase_if(widgets, [node](const auto& entry) { return entry.first == node; });
            }
        }
        dom_.setAttribute(node, "data-sku", sku);
        dom_.removeAttribute(node, "data-svc-state");
        dom_.release(node);
    }
    return scan();
}

size_t SdkController::pendingWidgetCount() const {
    size_t count = 0;
    for (const auto& [id, widgets] : batches_) count += widgets.size();
    return count;
}

}  // namespace svc
