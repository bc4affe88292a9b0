#include "BrowserDom.hpp"

#include <cstdlib>

#include "HostImports.hpp"

namespace svc {

std::vector<NodeId> BrowserDom::select(const char* selector) {
    int count = svc_dom_select(selector, nextId_);
    std::vector<NodeId> ids;
    for (int i = 0; i < count; ++i) ids.push_back(nextId_ + i);
    nextId_ += count;
    return ids;
}

std::vector<NodeId> BrowserDom::unclaimedWidgets() { return select("div[data-svc-widget-id]:not([data-svc-state])"); }

std::vector<NodeId> BrowserDom::claimedWidgetsOfType(const std::string& widgetType) {
    std::vector<NodeId> matching;
    for (NodeId id : select("div[data-svc-widget-id][data-svc-state]")) {
        if (attribute(id, "data-svc-widget-id") == widgetType) matching.push_back(id);
        else release(id);
    }
    return matching;
}

std::vector<NodeId> BrowserDom::claimedWidgets() { return select("div[data-svc-widget-id][data-svc-state]"); }
bool BrowserDom::sameNode(NodeId a, NodeId b) { return svc_dom_same(a, b) != 0; }
bool BrowserDom::connected(NodeId node) { return svc_dom_connected(node) != 0; }

std::optional<std::string> BrowserDom::attribute(NodeId node, std::string_view name) {
    char* value = svc_dom_attribute(node, std::string(name).c_str());
    if (!value) return std::nullopt;
    std::string result(value);
    std::free(value);
    return result;
}

void BrowserDom::setAttribute(NodeId node, std::string_view name, const std::string& value) {
    svc_dom_set_attribute(node, std::string(name).c_str(), value.c_str());
}

void BrowserDom::removeAttribute(NodeId node, std::string_view name) {
    svc_dom_set_attribute(node, std::string(name).c_str(), nullptr);
}

void BrowserDom::setContent(NodeId node, const std::string& html) { svc_dom_set_content(node, html.c_str()); }
void BrowserDom::hide(NodeId node) { svc_dom_set_visible(node, 0); }
void BrowserDom::show(NodeId node) { svc_dom_set_visible(node, 1); }
bool BrowserDom::displayed(NodeId node) { return svc_dom_displayed(node) != 0; }
void BrowserDom::release(NodeId node) { svc_dom_release(node); }
void BrowserDom::warn(const std::string& message) { svc_warn(message.c_str()); }

void BrowserDom::setPartContent(NodeId widget, const std::string& part, const std::string& html) {
    svc_dom_part(widget, part.c_str(), nullptr, html.c_str());
}

void BrowserDom::setPartAttribute(NodeId widget, const std::string& part, std::string_view name, const std::string& value) {
    svc_dom_part(widget, part.c_str(), std::string(name).c_str(), value.c_str());
}

void BrowserDom::removePartAttribute(NodeId widget, const std::string& part, std::string_view name) {
    svc_dom_part(widget, part.c_str(), std::string(name).c_str(), nullptr);
}

void BrowserDom::scrollPart(NodeId widget, const std::string& part, int direction) {
    svc_dom_scroll_part(widget, part.c_str(), direction);
}

bool BrowserDom::shopCanAddToCart() { return svc_shop_can_add_to_cart() != 0; }
void BrowserDom::addToCart(int requestId, const std::string& sku) { svc_shop_add_to_cart(requestId, sku.c_str()); }
void BrowserDom::watchShopPlugin() { svc_shop_watch_plugin(); }
bool BrowserDom::navigateTo(const std::string& url) { return svc_shop_navigate_to(url.c_str()) != 0; }

std::string BrowserDom::shopTestGroup() {
    char* group = svc_shop_test_group();
    if (!group) return {};
    std::string result(group);
    std::free(group);
    return result;
}

void BrowserDom::observeVisibility(NodeId node, int widgetKey) { svc_observe_visibility(node, widgetKey); }

void BrowserDom::dispatch(NodeId node, const std::string& type, const std::string& detailJson) {
    svc_dom_dispatch(node, type.c_str(), detailJson.c_str());
}

}  // namespace svc
