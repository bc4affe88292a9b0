#pragma once
// The only file besides bindings.cpp that touches emscripten::val: the page's DOM
// behind svc::Dom.
#include <emscripten/val.h>

#include <unordered_map>

#include "sdk/Dom.hpp"

namespace svc {

class BrowserDom : public Dom {
public:
    std::vector<NodeId> unclaimedWidgets() override;
    std::vector<NodeId> claimedWidgetsOfType(const std::string& widgetType) override;
    std::optional<std::string> attribute(NodeId node, std::string_view name) override;
    void setAttribute(NodeId node, std::string_view name, const std::string& value) override;
    void removeAttribute(NodeId node, std::string_view name) override;
    void setContent(NodeId node, const std::string& html) override;
    void hide(NodeId node) override;
    void show(NodeId node) override;
    void release(NodeId node) override;
    void warn(const std::string& message) override;

private:
    std::vector<NodeId> select(const std::string& selector);
    emscripten::val visibilityTarget(NodeId node);

    std::unordered_map<NodeId, emscripten::val> nodes_;
    NodeId nextId_ = 1;
};

}  // namespace svc
