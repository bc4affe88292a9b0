#pragma once
// The page as the SDK logic sees it. The browser adapter (wasm-sdk/BrowserDom)
// implements it with emscripten::val; native tests implement it in memory, so the
// SDK's logic is tested without a browser.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace svc {

using NodeId = int;

class Dom {
public:
    virtual ~Dom() = default;
    // Widget elements (div[data-svc-widget-id]) that the SDK has not claimed yet
    // (no data-svc-state attribute).
    virtual std::vector<NodeId> unclaimedWidgets() = 0;
    // Claimed widgets of one type (data-svc-widget-id) that are still in the page.
    virtual std::vector<NodeId> claimedWidgetsOfType(const std::string& widgetType) = 0;
    // Every claimed widget still in the page, whatever its type attribute says now.
    virtual std::vector<NodeId> claimedWidgets() {
        std::vector<NodeId> all;
        for (const char* type : {"SET", "SIMILAR", "SET-Custom", "SET-Compose"}) {
            for (NodeId node : claimedWidgetsOfType(type)) all.push_back(node);
        }
        return all;
    }
    // Whether two handles name one element (each lookup may hand out a new handle).
    virtual bool sameNode(NodeId a, NodeId b) { return a == b; }
    // False once the element has left the page (a single-page app replaced it).
    virtual bool connected(NodeId) { return true; }
    virtual std::optional<std::string> attribute(NodeId node, std::string_view name) = 0;
    virtual void setAttribute(NodeId node, std::string_view name, const std::string& value) = 0;
    virtual void removeAttribute(NodeId node, std::string_view name) = 0;
    // Replaces the element's children with markup the SDK rendered (escaped).
    virtual void setContent(NodeId node, const std::string& html) = 0;
    // Hides the enclosing .-svc-widget-container, or the element when it has none, with svc's
    // own marker only; show takes that marker away again. Neither touches how the shop itself
    // hides the container (hidden, a style, an ancestor): svc never shows what the shop hid.
    virtual void hide(NodeId node) = 0;
    virtual void show(NodeId node) = 0;
    // Whether the page displays the element at all (no hidden ancestor, no display:none,
    // visibility:hidden or opacity:0 on the way up): a widget the shop hid is never viewed.
    virtual bool displayed(NodeId) { return true; }
    // The SDK is done with the node; the adapter may drop its handle.
    virtual void release(NodeId node) = 0;
    virtual void warn(const std::string& message) = 0;

    // Parts of a rendered widget (elements with data-svc-part, see WidgetRenderer).
    virtual void setPartContent(NodeId widget, const std::string& part, const std::string& html) = 0;
    virtual void setPartAttribute(NodeId widget, const std::string& part, std::string_view name,
                                  const std::string& value) = 0;
    virtual void removePartAttribute(NodeId widget, const std::string& part, std::string_view name) = 0;
    // Scrolls a widget part sideways by about its visible width (direction -1 or +1);
    // instant when the shopper prefers reduced motion.
    virtual void scrollPart(NodeId widget, const std::string& part, int direction) = 0;

    // The shop's plugin (window._svc_shop_plugin). Whether addToCart is a function now.
    virtual bool shopCanAddToCart() = 0;
    // Calls addToCart(sku, 1, Promise) and answers later, never synchronously, through
    // SdkController::cartResult(requestId, outcome): resolved is Added, a throw or a rejection
    // Failed, an answer that is no promise (no then function) NotAPromise.
    virtual void addToCart(int requestId, const std::string& sku) = 0;
    // The shop's bundle may define addToCart after widgets were rendered (a deferred script):
    // calls SdkController::shopPluginReady() once shopCanAddToCart() turns true.
    virtual void watchShopPlugin() = 0;
    // Hands the product URL to the shop's navigateTo (a path when the URL is on the page's
    // origin). False when the shop has none or it threw: the link is then followed normally.
    virtual bool navigateTo(const std::string& url) = 0;
    // window._svc_shop_plugin.testgroup when it is a string, else "".
    virtual std::string shopTestGroup() = 0;

    // Tells the shop's page what became of a widget (docs/adr/0082): a bubbling CustomEvent `type`
    // ("svc:rendered", "svc:hidden", "svc:add-to-cart") on the widget element with the JSON object
    // `detailJson` as its detail. Dispatched after the SDK's current work, never inside it: a
    // listener may call _svc again.
    virtual void dispatch(NodeId node, const std::string& type, const std::string& detailJson) = 0;

    // Reports the widget's visibility to SdkController::widgetVisibility(widgetKey, ...)
    // whenever it changes, until that answers true.
    virtual void observeVisibility(NodeId node, int widgetKey) = 0;
};

}  // namespace svc
