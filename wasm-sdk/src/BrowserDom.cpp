#include "BrowserDom.hpp"

using emscripten::val;

namespace svc {

std::vector<NodeId> BrowserDom::select(const std::string& selector) {
    std::vector<NodeId> ids;
    val document = val::global("document");
    if (!document.as<bool>()) return ids;
    val list = document.call<val>("querySelectorAll", selector);
    int length = list["length"].as<int>();
    for (int i = 0; i < length; ++i) {
        NodeId id = nextId_++;
        nodes_.emplace(id, list.call<val>("item", i));
        ids.push_back(id);
    }
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

std::optional<std::string> BrowserDom::attribute(NodeId node, std::string_view name) {
    auto it = nodes_.find(node);
    if (it == nodes_.end()) return std::nullopt;
    val value = it->second.call<val>("getAttribute", std::string(name));
    if (value.isNull() || value.isUndefined()) return std::nullopt;
    return value.as<std::string>();
}

void BrowserDom::setAttribute(NodeId node, std::string_view name, const std::string& value) {
    auto it = nodes_.find(node);
    if (it != nodes_.end()) it->second.call<void>("setAttribute", std::string(name), value);
}

void BrowserDom::removeAttribute(NodeId node, std::string_view name) {
    auto it = nodes_.find(node);
    if (it != nodes_.end()) it->second.call<void>("removeAttribute", std::string(name));
}

void BrowserDom::setContent(NodeId node, const std::string& html) {
    auto it = nodes_.find(node);
    if (it != nodes_.end()) it->second.set("innerHTML", html);
}

val BrowserDom::visibilityTarget(NodeId node) {
    val element = nodes_.at(node);
    val container = element.call<val>("closest", std::string(".-svc-widget-container"));
    return container.isNull() ? element : container;
}

void BrowserDom::hide(NodeId node) {
    if (!nodes_.count(node)) return;
    // CSSOM, not a style attribute: allowed under a strict Content-Security-Policy,
    // and !important so that the shop's CSS cannot show an empty widget.
    val target = visibilityTarget(node);
    target.set("hidden", true);
    target["style"].call<void>("setProperty", std::string("display"), std::string("none"), std::string("important"));
}

void BrowserDom::show(NodeId node) {
    if (!nodes_.count(node)) return;
    val target = visibilityTarget(node);
    target.set("hidden", false);
    target["style"].call<void>("removeProperty", std::string("display"));
}

void BrowserDom::release(NodeId node) { nodes_.erase(node); }

void BrowserDom::warn(const std::string& message) {
    val console = val::global("console");
    if (console.as<bool>()) console.call<void>("warn", message);
}

}  // namespace svc
