#pragma once
// An in-memory page for the SDK's unit tests of demo mode and page changes: widget
// elements in page order with attributes, content and visibility. Unlike the browser,
// handles are stable per element, so the tests also count renders and releases.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sdk/Dom.hpp"

namespace sdk_test {

class SdkMemoryDom : public svc::Dom {
public:
    struct Node {
        std::map<std::string, std::string> attributes;
        std::string content;
        int renders = 0;  // setContent calls: a double render shows here
        bool hidden = false;
        bool inPage = true;
    };
    std::map<svc::NodeId, Node> nodes;
    std::vector<std::string> warnings;
    std::vector<svc::NodeId> observed;

    svc::NodeId add(std::map<std::string, std::string> attributes) {
        svc::NodeId id = nextId_++;
        nodes[id].attributes = std::move(attributes);
        return id;
    }
    svc::NodeId addWidget(const std::string& type, const std::string& touchpoint, const std::string& sku = "") {
        std::map<std::string, std::string> attributes{{"data-svc-widget-id", type}, {"data-touchpoint", touchpoint}};
        if (!sku.empty()) attributes["data-sku"] = sku;
        return add(std::move(attributes));
    }
    std::optional<std::string> get(svc::NodeId node, const std::string& name) const {
        const auto& attributes = nodes.at(node).attributes;
        auto found = attributes.find(name);
        return found == attributes.end() ? std::nullopt : std::optional<std::string>(found->second);
    }
    std::optional<std::string> state(svc::NodeId node) const { return get(node, "data-svc-state"); }

    std::vector<svc::NodeId> unclaimedWidgets() override {
        std::vector<svc::NodeId> result;
        for (const auto& [id, node] : nodes) {
            if (node.inPage && node.attributes.count("data-svc-widget-id") && !node.attributes.count("data-svc-state")) {
                result.push_back(id);
            }
        }
        return result;
    }
    std::vector<svc::NodeId> claimedWidgetsOfType(const std::string& widgetType) override {
        std::vector<svc::NodeId> result;
        for (const auto& [id, node] : nodes) {
            if (node.inPage && get(id, "data-svc-widget-id") == widgetType && node.attributes.count("data-svc-state")) {
                result.push_back(id);
            }
        }
        return result;
    }
    bool connected(svc::NodeId node) override { return nodes.at(node).inPage; }
    std::optional<std::string> attribute(svc::NodeId node, std::string_view name) override {
        return get(node, std::string(name));
    }
    void setAttribute(svc::NodeId node, std::string_view name, const std::string& value) override {
        nodes.at(node).attributes[std::string(name)] = value;
    }
    void removeAttribute(svc::NodeId node, std::string_view name) override {
        nodes.at(node).attributes.erase(std::string(name));
    }
    void setContent(svc::NodeId node, const std::string& html) override {
        nodes.at(node).content = html;
        ++nodes.at(node).renders;
    }
    void hide(svc::NodeId node) override { nodes.at(node).hidden = true; }
    void show(svc::NodeId node) override { nodes.at(node).hidden = false; }
    void release(svc::NodeId) override {}
    void warn(const std::string& message) override { warnings.push_back(message); }
    void setPartContent(svc::NodeId, const std::string&, const std::string&) override {}
    void setPartAttribute(svc::NodeId, const std::string&, std::string_view, const std::string&) override {}
    void removePartAttribute(svc::NodeId, const std::string&, std::string_view) override {}
    void scrollPart(svc::NodeId, const std::string&, int) override {}

    bool canAddToCart = true;
    std::vector<std::string> cartSkus;
    bool shopCanAddToCart() override { return canAddToCart; }
    void addToCart(int, const std::string& sku) override { cartSkus.push_back(sku); }
    void watchShopPlugin() override {}
    bool navigateTo(const std::string&) override { return false; }
    std::string shopTestGroup() override { return ""; }
    void observeVisibility(svc::NodeId node, int) override { observed.push_back(node); }
    std::vector<std::pair<std::string, std::string>> dispatched;  // (type, detail JSON)
    void dispatch(svc::NodeId, const std::string& type, const std::string& detailJson) override {
        dispatched.emplace_back(type, detailJson);
    }

private:
    svc::NodeId nextId_ = 1;
};

// A content response with `items` items per widget (SKUs "<prefix>-<n>").
inline std::string contentResponse(const std::vector<std::string>& prefixes, int items = 2) {
    std::string json = R"({"currency":"EUR","locale":"de-DE","widgets":[)";
    for (size_t w = 0; w < prefixes.size(); ++w) {
        if (w) json += ",";
        json += R"({"items":[)";
        for (int i = 0; i < items; ++i) {
            std::string sku = prefixes[w] + "-" + std::to_string(i);
            if (i) json += ",";
            json += R"({"sku":")" + sku + R"(","mainSku":")" + sku + R"(","name":"Name )" + sku +
                    R"(","brand":"B","url":"/p/)" + sku + R"(","image":"/i/)" + sku + R"(.svg","price":1000})";
        }
        json += "]}";
    }
    return json + "]}";
}

}  // namespace sdk_test
