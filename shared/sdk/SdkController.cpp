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
    std::vector<PendingWidget> claimed;
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
        claimed.push_back({node, std::move(*spec)});
    }
    if (claimed.empty()) return {};
    std::vector<WidgetSpec> specs;
    for (const auto& widget : claimed) specs.push_back(widget.spec);
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
        if (widgets[i].superseded) continue;
        NodeId node = widgets[i].node;
        const WidgetSpec& spec = widgets[i].spec;
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
    for (const auto& widget : batch->second) {
        if (widget.superseded) continue;
        dom_.hide(widget.node);
        finish(widget.node, "failed");
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
            // Its earlier request may still answer: that answer must not touch it any more.
            for (auto& [id, widgets] : batches_) {
                for (auto& widget : widgets) {
                    if (widget.node == node) widget.superseded = true;
                }
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
    for (const auto& [id, widgets] : batches_) {
        for (const auto& widget : widgets) count += widget.superseded ? 0 : 1;
    }
    return count;
}

}  // namespace svc
