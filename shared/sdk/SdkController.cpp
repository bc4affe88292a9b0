#include "sdk/SdkController.hpp"

#include "sdk/DemoCatalog.hpp"
#include "sdk/PurchasePayload.hpp"
#include "text/HtmlEscape.hpp"
#include "text/JsonWriter.hpp"
#include "text/StringUtil.hpp"
#include "widget/ContentRequest.hpp"

namespace svc {

void SdkController::warnOnce(const std::string& message) {
    if (warned_.insert(message).second) dom_.warn("[svc] " + message);
}

std::string SdkController::widgetDetail(NodeId node) {
    std::string json = "{";
    for (auto [member, attribute] : {std::pair{"widgetId", "data-svc-widget-id"}, std::pair{"touchpoint", "data-touchpoint"},
                                     std::pair{"sku", "data-sku"}}) {
        json += '"';
        json += member;
        json += "\":";
        appendJsonString(json, dom_.attribute(node, attribute).value_or(""));
        json += ',';
    }
    return json;
}

void SdkController::hideWidget(NodeId node, const char* reason, const std::string& message) {
    dom_.hide(node);
    dom_.setAttribute(node, "data-svc-state", reason);
    std::string detail = widgetDetail(node) + "\"reason\":";
    appendJsonString(detail, reason);
    detail += ",\"message\":";
    appendJsonString(detail, message);
    dom_.dispatch(node, "svc:hidden", detail + "}");
    dom_.release(node);
}

namespace {

constexpr const char* kComposeOutsideDemo =
    "SET-Compose shows demo content only in demo mode (svc-demo=true in the page URL, "
    "window._svc_config = {isDemoMode: true} or _svc.demo('SET-Compose')); widget hidden";

}  // namespace

void SdkController::setDemoMode(bool enabled, const std::string& assetBase) {
    demoMode_ = enabled;
    demoAssetBase_ = assetBase;
}

std::string SdkController::claimSignature(NodeId node) {
    std::string signature;
    for (const char* name : {"data-svc-widget-id", "data-touchpoint", "data-sku", "data-set-id"}) {
        signature += dom_.attribute(node, name).value_or("");
        signature += '\n';
    }
    return signature;
}

ContentBatch SdkController::scan() {
    std::vector<PendingWidget> claimed;
    for (NodeId node : dom_.unclaimedWidgets()) {
        if (claimed.size() >= ContentRequest::kMaxWidgets) {
            // Leave it unclaimed: the next scan takes it in a further request.
            dom_.release(node);
            continue;
        }
        dom_.setAttribute(node, kClaimAttribute, claimSignature(node));
        auto spec = WidgetSpec::fromAttributes([&](std::string_view name) { return dom_.attribute(node, name); });
        if (!spec) {
            warnOnce("widget hidden: " + spec.error().message);
            hideWidget(node, "invalid", spec.error().message);
            continue;
        }
        if (spec->type == WidgetType::SetCompose) {
            // Demo content is the SDK's own: no request, also for a tenant without products.
            showCompose(node, *spec);
            continue;
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
    WidgetRenderer renderer(MoneyFormatter(response->currency, response->locale), response->texts);
    RenderOptions options;
    options.cartButtons = dom_.shopCanAddToCart();
    auto& widgets = batch->second;
    for (size_t i = 0; i < widgets.size(); ++i) {
        if (widgets[i].superseded) {
            dom_.release(widgets[i].node);
            continue;
        }
        renderWidget(widgets[i].node, widgets[i].spec, std::move(response->widgets[i]), renderer, options);
    }
    batches_.erase(batch);
    // A shop whose bundle comes later (deferred) defines addToCart after this render: the
    // buttons follow as soon as it does.
    if (!options.cartButtons && !rendered_.empty() && !watchingShopPlugin_) {
        watchingShopPlugin_ = true;
        dom_.watchShopPlugin();
    }
}

void SdkController::shopPluginReady() {
    watchingShopPlugin_ = false;
    if (!dom_.shopCanAddToCart()) return;
    for (auto& [key, widget] : rendered_) {
        // Demo SKUs are in no shop's cart (showCompose).
        if (widget.options.cartButtons || widget.spec.type == WidgetType::SetCompose) continue;
        widget.options.cartButtons = true;
        for (size_t at = 0; at < widget.content.items.size(); ++at) {
            const ContentItem& shown = choiceAt(widget.content.items[at], widget.chosen[at]);
            dom_.setPartContent(widget.node, WidgetRenderer::cardPart(at), widget.renderer.renderCardBody(shown, at, widget.options));
        }
    }
}

void SdkController::renderWidget(NodeId node, const WidgetSpec& spec, WidgetContent&& content,
                                 const WidgetRenderer& renderer, const RenderOptions& options) {
    std::string html = renderer.render(spec, content, options);
    if (html.empty()) {
        hideWidget(node, "empty", "svc has no content for this widget");
        return;
    }
    int key = nextWidgetKey_++;
    dom_.setContent(node, html);
    dom_.setAttribute(node, "data-svc-key", std::to_string(key));
    dom_.show(node);
    dom_.setAttribute(node, "data-svc-state", "rendered");
    std::string detail = widgetDetail(node) + "\"products\":[";
    for (size_t at = 0; at < content.items.size(); ++at) {
        if (at) detail += ',';
        appendJsonString(detail, content.items[at].sku);
    }
    dom_.dispatch(node, "svc:rendered", detail + "]}");
    std::vector<size_t> chosen(content.items.size(), 0);
    rendered_.emplace(key, RenderedWidget{node, spec, std::move(content), renderer, options, std::move(chosen)});
    // Demo widgets earn nothing and are not tracked.
    if (spec.type != WidgetType::SetCompose) dom_.observeVisibility(node, key);
}

void SdkController::showCompose(NodeId node, const WidgetSpec& spec) {
    if (!demoMode_) {
        warnOnce(kComposeOutsideDemo);
        hideWidget(node, "demo-only", kComposeOutsideDemo);
        return;
    }
    // Demo SKUs are in no shop's cart: no add-to-cart buttons.
    WidgetRenderer renderer(MoneyFormatter("EUR", "de-DE"));
    renderWidget(node, spec, DemoCatalog::look(demoAssetBase_), renderer, RenderOptions{});
}

ContentBatch SdkController::demo(const std::string& widgetType) {
    if (widgetType != widgetTypeName(WidgetType::SetCompose)) {
        warnOnce("demo: widgetId '" + widgetType + "' has no demo; only SET-Compose supports demo mode");
        return {};
    }
    demoMode_ = true;
    // Widgets hidden as demo-only so far are claimed again, and now shown.
    for (NodeId node : dom_.claimedWidgetsOfType(widgetType)) {
        if (dom_.attribute(node, "data-svc-state") == std::optional<std::string>("demo-only")) unclaim(node);
        dom_.release(node);
    }
    return scan();
}

ContentBatch SdkController::refresh() {
    for (NodeId node : dom_.claimedWidgets()) {
        auto claimedWith = dom_.attribute(node, kClaimAttribute);
        // Without a claim, the snippet or the loader gave the widget up (svc did not load in time)
        // and hid its container for good: a late SDK leaves it hidden whatever changes.
        if (claimedWith && *claimedWith != claimSignature(node)) unclaim(node);
        dom_.release(node);
    }
    // Widgets a single-page app removed: their handles would keep the elements alive.
    for (auto widget = rendered_.begin(); widget != rendered_.end();) {
        if (dom_.connected(widget->second.node)) {
            ++widget;
            continue;
        }
        dom_.release(widget->second.node);
        widget = rendered_.erase(widget);
    }
    return scan();
}

void SdkController::failBatch(int batchId, const std::string& cause) {
    auto batch = batches_.find(batchId);
    if (batch == batches_.end()) return;
    for (const auto& widget : batch->second) {
        if (widget.superseded) {
            dom_.release(widget.node);
            continue;
        }
        hideWidget(widget.node, "failed", cause);
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
        unclaim(node);
        dom_.setAttribute(node, "data-sku", sku);
        dom_.release(node);
    }
    return scan();
}

void SdkController::unclaim(NodeId node) {
    if (dom_.attribute(node, "data-svc-state") == std::optional<std::string>("loading")) {
        // Its earlier request may still answer: that answer must not touch it any more.
        // The pending entry holds a handle of its own for the same element.
        for (auto& [id, widgets] : batches_) {
            for (auto& widget : widgets) {
                if (dom_.sameNode(widget.node, node)) widget.superseded = true;
            }
        }
    }
    forgetRendered(node);
    dom_.removeAttribute(node, "data-svc-state");
}

void SdkController::forgetRendered(NodeId node) {
    auto keyText = dom_.attribute(node, "data-svc-key");
    if (!keyText) return;
    dom_.removeAttribute(node, "data-svc-key");
    auto key = parseInt64(*keyText);
    auto widget = key ? rendered_.find(static_cast<int>(*key)) : rendered_.end();
    if (widget == rendered_.end()) return;
    dom_.release(widget->second.node);
    rendered_.erase(widget);
}

ActionOutcome SdkController::handleAction(int widgetKey, const std::string& action, int position, int choice,
                                          bool plainClick) {
    auto found = rendered_.find(widgetKey);
    if (found == rendered_.end()) return ActionOutcome::Ignored;
    RenderedWidget& widget = found->second;
    if (action == "prev" || action == "next") {  // the carousel's controls: not about one product
        dom_.scrollPart(widget.node, WidgetRenderer::listPart(), action == "next" ? 1 : -1);
        return ActionOutcome::Handled;
    }
    if (position < 0 || static_cast<size_t>(position) >= widget.content.items.size()) return ActionOutcome::Ignored;
    size_t at = static_cast<size_t>(position);
    const ContentItem& item = widget.content.items[at];
    const ContentItem& shown = choiceAt(item, widget.chosen[at]);
    if (action == "open") {
        // Every click on a product counts, also one that opens a tab.
        recordEvent(WidgetEventType::Click, widget, shown.sku);
        // A modified click opens a tab: the shop's router must not take it.
        if (!plainClick) return ActionOutcome::Ignored;
        std::string url = safeUrl(shown.url);
        if (url.empty() || !dom_.navigateTo(url)) return ActionOutcome::Ignored;
        return ActionOutcome::Handled;
    }
    if (action == "cart") {
        for (const auto& [id, cart] : carts_) {
            // The button is disabled while its promise is pending; a click that still arrives adds nothing twice.
            if (cart.widgetKey == widgetKey && cart.position == at) return ActionOutcome::Handled;
        }
        if (!dom_.shopCanAddToCart()) {
            // The shop removed its function after rendering: say so instead of doing nothing.
            dom_.setPartContent(widget.node, WidgetRenderer::statusPart(at), escapeHtml(widget.renderer.texts().get(TextKey::NotAddedToCart)));
            return ActionOutcome::Handled;
        }
        int requestId = nextCartId_++;
        carts_[requestId] = {widgetKey, at, shown.sku};
        dom_.setPartContent(widget.node, WidgetRenderer::statusPart(at), "");
        setCartBusy(widget, at, true);
        dom_.addToCart(requestId, shown.sku);
        return ActionOutcome::Handled;
    }
    if (action == "alt") {
        if (choice < 0 || static_cast<size_t>(choice) > item.alternatives.size()) return ActionOutcome::Ignored;
        size_t previous = widget.chosen[at];
        size_t next = static_cast<size_t>(choice);
        if (previous == next) return ActionOutcome::Handled;
        widget.chosen[at] = next;
        const ContentItem& now = choiceAt(item, next);
        dom_.setPartContent(widget.node, WidgetRenderer::cardPart(at), widget.renderer.renderCardBody(now, at, widget.options));
        dom_.setPartAttribute(widget.node, WidgetRenderer::positionPart(at), "data-svc-sku", now.sku);
        dom_.setPartAttribute(widget.node, WidgetRenderer::alternativePart(at, previous), "aria-pressed", "false");
        dom_.setPartAttribute(widget.node, WidgetRenderer::alternativePart(at, next), "aria-pressed", "true");
        return ActionOutcome::Handled;
    }
    return ActionOutcome::Ignored;
}

void SdkController::setCartBusy(const RenderedWidget& widget, size_t position, bool busy) {
    std::string button = WidgetRenderer::cartButtonPart(position);
    for (const char* name : {"disabled", "aria-disabled", "aria-busy"}) {
        if (busy) dom_.setPartAttribute(widget.node, button, name, std::string_view(name) == "disabled" ? "" : "true");
        else dom_.removePartAttribute(widget.node, button, name);
    }
}

void SdkController::cartResult(int requestId, CartOutcome outcome, const std::string& reason) {
    auto cart = carts_.find(requestId);
    if (cart == carts_.end()) return;
    PendingCart pending = cart->second;
    carts_.erase(cart);
    if (outcome == CartOutcome::NotAPromise) {
        warnOnce("_svc_shop_plugin.addToCart must return a promise that resolves when the product is in the cart; "
                 "it returned none, so the widget cannot say whether it was added");
    }
    auto widget = rendered_.find(pending.widgetKey);
    if (widget == rendered_.end()) return;  // re-rendered meanwhile: nothing left to tell
    setCartBusy(widget->second, pending.position, false);
    // Only a cart that took the product is an add-to-cart for attribution; an answer that says
    // nothing claims nothing, neither in the events nor on the button.
    std::string text;
    if (outcome == CartOutcome::Added) {
        recordEvent(WidgetEventType::AddToCart, widget->second, pending.sku);
        text = escapeHtml(widget->second.renderer.texts().get(TextKey::AddedToCart));
    } else if (outcome == CartOutcome::Failed) {
        text = escapeHtml(widget->second.renderer.texts().get(TextKey::NotAddedToCart));
    }
    dom_.setPartContent(widget->second.node, WidgetRenderer::statusPart(pending.position), text);
    std::string detail = widgetDetail(widget->second.node) + "\"product\":";
    appendJsonString(detail, pending.sku);
    detail += outcome == CartOutcome::Added    ? ",\"status\":\"resolved\""
              : outcome == CartOutcome::Failed ? ",\"status\":\"rejected\""
                                               : ",\"status\":\"unknown\"";
    if (outcome != CartOutcome::Added) {
        detail += ",\"reason\":";
        appendJsonString(detail, outcome == CartOutcome::NotAPromise ? "addToCart returned no promise" : reason);
    }
    dom_.dispatch(widget->second.node, "svc:add-to-cart", detail + "}");
}

void SdkController::recordEvent(WidgetEventType type, const RenderedWidget& widget, const std::string& sku) {
    // Without consent there is no visitor to attribute to: the interaction is not recorded at all.
    if (consent_ != Consent::Granted) return;
    EventContext context{visitor_.cid, visitor_.sid, visitor_.variant, dom_.shopTestGroup()};
    events_.record(type, widget.spec, sku, widget.content.setId, context);
}

bool SdkController::widgetVisibility(int widgetKey, double visibleFractionOfWidget, double fractionOfViewportCovered) {
    auto found = rendered_.find(widgetKey);
    if (found == rendered_.end()) return true;
    RenderedWidget& widget = found->second;
    if (widget.viewed) return true;
    if (!WidgetEventLog::isView(visibleFractionOfWidget, fractionOfViewportCovered)) return false;
    // On screen but hidden by the shop (its A/B control group, a closed tab): not a view, yet.
    if (!dom_.displayed(widget.node)) return false;
    widget.viewed = true;
    // A view is of the widget: it names the product it was shown for (data-sku) and its set.
    recordEvent(WidgetEventType::View, widget, widget.spec.sku);
    return true;
}

std::string SdkController::track(const std::string& eventName, const std::string& payloadJson) {
    if (eventName != "purchase") {
        warnOnce("svclytics: unknown event '" + eventName + "'; the SDK sends 'purchase'");
        return {};
    }
    PurchaseCheck check = PurchasePayload::check(payloadJson, consent_ == Consent::Granted ? visitor_.cid : "");
    for (const auto& problem : check.problems) warnOnce("svclytics('purchase'): " + problem + "; the order is not sent");
    if (check.body.empty()) return {};
    if (!ordersSent_.insert(check.orderId).second) {
        // The server ignores repeats as well; not sending them spares the request.
        warnOnce("svclytics('purchase'): orderid '" + check.orderId + "' was sent already; an order counts once");
        return {};
    }
    if (consent_ == Consent::Pending) {
        // The banner may still be answered on this page: the order then carries the visitor's id.
        heldPurchases_.push_back(payloadJson);
        return {};
    }
    return check.body;
}

std::vector<std::string> SdkController::releaseHeldPurchases() {
    std::vector<std::string> bodies;
    std::string cid = consent_ == Consent::Granted ? visitor_.cid : "";
    for (const auto& payload : heldPurchases_) {
        auto body = PurchasePayload::check(payload, cid).body;
        if (!body.empty()) bodies.push_back(std::move(body));
    }
    heldPurchases_.clear();
    return bodies;
}

std::vector<std::string> SdkController::setConsent(Consent consent, const VisitorIds& visitor) {
    consent_ = consent;
    visitor_ = consent == Consent::Granted ? visitor : VisitorIds{};
    // Withdrawn: what was recorded but not sent yet names the visitor who just said no; it stays here.
    if (consent == Consent::Denied) events_.drain();
    if (consent == Consent::Pending) return {};
    return releaseHeldPurchases();
}

std::vector<std::string> SdkController::drainEvents() {
    auto bodies = events_.drain();
    for (auto& body : releaseHeldPurchases()) bodies.push_back(std::move(body));
    return bodies;
}

size_t SdkController::pendingWidgetCount() const {
    size_t count = 0;
    for (const auto& [id, widgets] : batches_) {
        for (const auto& widget : widgets) count += widget.superseded ? 0 : 1;
    }
    return count;
}

}  // namespace svc
