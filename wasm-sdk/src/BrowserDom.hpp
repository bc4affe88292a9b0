#pragma once
// svc::Dom in the browser: every operation is one import from js/library.js, which
// keeps the elements in a table under the NodeIds this class hands out.
#include "sdk/Dom.hpp"

namespace svc {

class BrowserDom : public Dom {
public:
    std::vector<NodeId> unclaimedWidgets() override;
    std::vector<NodeId> claimedWidgetsOfType(const std::string& widgetType) override;
    std::vector<NodeId> claimedWidgets() override;
    bool sameNode(NodeId a, NodeId b) override;
    bool connected(NodeId node) override;
    std::optional<std::string> attribute(NodeId node, std::string_view name) override;
    void setAttribute(NodeId node, std::string_view name, const std::string& value) override;
    void removeAttribute(NodeId node, std::string_view name) override;
    void setContent(NodeId node, const std::string& html) override;
    void hide(NodeId node) override;
    void show(NodeId node) override;
    bool displayed(NodeId node) override;
    void release(NodeId node) override;
    void warn(const std::string& message) override;
    void setPartContent(NodeId widget, const std::string& part, const std::string& html) override;
    void setPartAttribute(NodeId widget, const std::string& part, std::string_view name, const std::string& value) override;
    void removePartAttribute(NodeId widget, const std::string& part, std::string_view name) override;
    void scrollPart(NodeId widget, const std::string& part, int direction) override;
    bool shopCanAddToCart() override;
    void addToCart(int requestId, const std::string& sku) override;
    void watchShopPlugin() override;
    bool navigateTo(const std::string& url) override;
    std::string shopTestGroup() override;
    void observeVisibility(NodeId node, int widgetKey) override;
    void dispatch(NodeId node, const std::string& type, const std::string& detailJson) override;

private:
    std::vector<NodeId> select(const char* selector);
    NodeId nextId_ = 1;
};

}  // namespace svc
