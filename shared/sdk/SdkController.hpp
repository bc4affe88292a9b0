#pragma once
// The SDK's logic: claims widgets on the page, asks for their content in one
// request, renders or hides them, and handles what the shopper does with a rendered
// widget (open a product, add to cart, pick an alternative). I/O stays outside: the
// JS layer performs requests and shop calls and hands the answers back.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "money/MoneyFormatter.hpp"
#include "sdk/Consent.hpp"
#include "sdk/Dom.hpp"
#include "sdk/VisitorIdentity.hpp"
#include "sdk/WidgetEventLog.hpp"
#include "widget/WidgetContent.hpp"
#include "widget/WidgetRenderer.hpp"
#include "widget/WidgetSpec.hpp"

namespace svc {

struct ContentBatch {
    int id = 0;             // 0: nothing to fetch
    std::string query;      // query string for GET {base}/{apiId}/content?...
};

// How the shop's addToCart answered (Dom::addToCart).
enum class CartOutcome {
    Added,       // its promise resolved
    Failed,      // it threw or its promise rejected
    NotAPromise, // it returned something else: whether the cart took the product is unknown
};

enum class ActionOutcome {
    Ignored,  // not ours, or stale: the browser's default happens
    Handled,  // done here: the JS layer prevents the browser's default
};

class SdkController {
public:
    explicit SdkController(Dom& dom) : dom_(dom) {}

    // Demo mode (svc-demo=true, window._svc_config.isDemoMode): SET-Compose widgets show the
    // built-in demo look (DemoCatalog) with images under `assetBase`. Outside demo mode they
    // are hidden with one warning. Set once before the first scan.
    void setDemoMode(bool enabled, const std::string& assetBase);

    // Claims new widgets. Invalid ones are hidden with one warning naming the attribute;
    // SET-Compose ones are filled or hidden here (demo mode) and never requested.
    ContentBatch scan();
    // The page changed (MutationObserver): claimed widgets whose attributes (type,
    // touchpoint, data-sku, data-set-id) differ from what they were claimed with are
    // claimed anew, widgets that left the page are forgotten, new widgets are claimed.
    // A change the SDK made itself (updateWidgetSku) matches already: nothing twice.
    ContentBatch refresh();
    // _svc.demo(widgetId): only "SET-Compose"; its widgets show the demo look from now on.
    ContentBatch demo(const std::string& widgetType);
    // Fills the batch's widgets from the content response; widgets without items are hidden.
    void applyContent(int batchId, const std::string& responseText);
    // The request failed (network, HTTP status, timeout): hide the batch, warn once per cause.
    void failBatch(int batchId, const std::string& cause);

    // A new visual variant (colour, pattern): widgets of that type show content for `sku`.
    // Returns the batch to fetch; warns and does nothing for an unknown type or empty SKU.
    ContentBatch updateWidgetSku(const std::string& widgetType, const std::string& sku);

    // A click on an element with data-svc-action inside the rendered widget `widgetKey`
    // (its data-svc-key): "open" (plainClick false for a modified click that opens a tab),
    // "cart", "alt" (choice: the data-svc-alt of the button).
    ActionOutcome handleAction(int widgetKey, const std::string& action, int position, int choice, bool plainClick);
    // The shop's addToCart answered (`reason`: why it failed, e.g. its rejection's message). Until
    // then the position's button is disabled and busy.
    void cartResult(int requestId, CartOutcome outcome, const std::string& reason = "");
    // addToCart exists now (Dom::watchShopPlugin): widgets rendered without it get their buttons.
    void shopPluginReady();

    // The ids events carry (VisitorIdentity::establish); set once before the first scan.
    void setVisitor(const VisitorIds& visitor) { visitor_ = visitor; }
    // A rendered widget's visibility changed. True when nothing more is to be observed
    // (the view is recorded, or the widget is gone).
    bool widgetVisibility(int widgetKey, double visibleFractionOfWidget, double fractionOfViewportCovered);
    // The visitor's consent (docs/adr/0083) and the ids that go with it (none unless granted).
    // Until granted no widget event is recorded (denied also drops those not sent yet); a purchase
    // waits while consent is pending and goes
    // without a visitor id once it is denied. Returns the bodies of purchases that waited, to send now.
    std::vector<std::string> setConsent(Consent consent, const VisitorIds& visitor);
    Consent consent() const { return consent_; }

    // The page is being hidden: the events so far as request bodies for POST /events (with a
    // purchase that still waits for consent, without a visitor id: the order is not lost).
    std::vector<std::string> drainEvents();
    size_t queuedEventCount() const { return events_.size(); }

    // svclytics(eventName, payload), the payload as JSON.stringify made it. Returns the body
    // for POST /events, or "" when nothing is to be sent: an unknown event name, a payload
    // with problems (each warned once, naming the field), an order already sent from this page.
    std::string track(const std::string& eventName, const std::string& payloadJson);

    size_t pendingWidgetCount() const;
    size_t renderedWidgetCount() const { return rendered_.size(); }

    // The attribute that remembers what a widget was claimed with (see refresh).
    static constexpr const char* kClaimAttribute = "data-svc-for";

    // One console warning per distinct message ("[svc] " prefixed).
    void warnOnce(const std::string& message);

private:
    // Hides the widget's container, marks why (data-svc-state) and tells the page (svc:hidden).
    void hideWidget(NodeId node, const char* reason, const std::string& message);
    // The start of an event's detail object: widgetId, touchpoint and sku as the element has them,
    // each followed by a comma; the caller adds its own members and the closing brace.
    std::string widgetDetail(NodeId node);
    std::vector<std::string> releaseHeldPurchases();
    void forgetRendered(NodeId node);
    // Takes a claimed widget back: a pending answer no longer touches it, a rendered one is forgotten.
    void unclaim(NodeId node);
    std::string claimSignature(NodeId node);
    void showCompose(NodeId node, const WidgetSpec& spec);
    void renderWidget(NodeId node, const WidgetSpec& spec, WidgetContent&& content, const WidgetRenderer& renderer,
                      const RenderOptions& options);
    struct RenderedWidget;
    void recordEvent(WidgetEventType type, const RenderedWidget& widget, const std::string& sku);

    Dom& dom_;
    bool demoMode_ = false;
    std::string demoAssetBase_;
    int nextBatchId_ = 1;
    struct PendingWidget {
        NodeId node;
        WidgetSpec spec;
        // Taken over by a later request (updateWidgetSku); its answer here is ignored, but
        // the entry stays so that response positions keep matching the other widgets.
        bool superseded = false;
    };
    std::map<int, std::vector<PendingWidget>> batches_;

    // A widget on screen: its handle is kept so that its parts can change.
    struct RenderedWidget {
        NodeId node;
        WidgetSpec spec;
        WidgetContent content;
        WidgetRenderer renderer;
        RenderOptions options;
        std::vector<size_t> chosen;  // per position: 0 the item, i its alternative i - 1
        bool viewed = false;
    };
    std::map<int, RenderedWidget> rendered_;  // by data-svc-key
    int nextWidgetKey_ = 1;

    struct PendingCart {
        int widgetKey;
        size_t position;
        std::string sku;
    };
    std::map<int, PendingCart> carts_;
    int nextCartId_ = 1;
    bool watchingShopPlugin_ = false;
    void setCartBusy(const RenderedWidget& widget, size_t position, bool busy);
    std::set<std::string> warned_;
    VisitorIds visitor_;
    std::set<std::string> ordersSent_;
    Consent consent_ = Consent::Granted;
    std::vector<std::string> heldPurchases_;  // payloads (JSON) reported while consent was pending
    WidgetEventLog events_;
};

}  // namespace svc
