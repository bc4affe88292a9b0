// Unit tests of sdk/SdkController against an in-memory page (a Dom implementation).
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "money/MoneyFormatter.hpp"
#include "sdk/SdkController.hpp"
#include "tracking/EventParser.hpp"
#include "widget/WidgetContent.hpp"
#include "widget/WidgetRenderer.hpp"

using svc::ContentBatch;
using svc::NodeId;
using svc::SdkController;

namespace {

// The page: nodes in page order (by id), each with attributes, content and visibility.
class MemoryDom : public svc::Dom {
public:
    struct Node {
        std::map<std::string, std::string> attributes;
        std::string content;
        bool hidden = false;
        bool inContainer = false;      // inside a .-svc-widget-container
        bool containerHidden = false;  // that container's visibility
        bool hiddenByShop = false;     // the shop's own hiding (hidden, display:none, a hidden ancestor)
        int releases = 0;
    };
    std::map<NodeId, Node> nodes;
    std::vector<std::string> warnings;

    NodeId addWidget(std::map<std::string, std::string> attributes, bool inContainer = false) {
        NodeId id = nextId_++;
        nodes[id].attributes = std::move(attributes);
        nodes[id].inContainer = inContainer;
        return id;
    }
    NodeId addSimilar(const std::string& sku, bool inContainer = false) {
        return addWidget({{"data-svc-widget-id", "SIMILAR"}, {"data-touchpoint", "product"}, {"data-sku", sku}}, inContainer);
    }
    std::optional<std::string> state(NodeId node) const { return get(node, "data-svc-state"); }
    std::optional<std::string> get(NodeId node, const std::string& name) const {
        const auto& attributes = nodes.at(node).attributes;
        auto it = attributes.find(name);
        return it == attributes.end() ? std::nullopt : std::optional<std::string>(it->second);
    }
    bool visible(NodeId node) const { return !nodes.at(node).hidden && !nodes.at(node).containerHidden; }

    std::vector<NodeId> unclaimedWidgets() override {
        std::vector<NodeId> result;
        for (const auto& [id, node] : nodes) {
            if (node.attributes.count("data-svc-widget-id") && !node.attributes.count("data-svc-state")) result.push_back(id);
        }
        return result;
    }
    std::vector<NodeId> claimedWidgetsOfType(const std::string& widgetType) override {
        std::vector<NodeId> result;
        for (const auto& [id, node] : nodes) {
            auto type = node.attributes.find("data-svc-widget-id");
            if (type != node.attributes.end() && type->second == widgetType && node.attributes.count("data-svc-state")) {
                result.push_back(id);
            }
        }
        return result;
    }
    std::optional<std::string> attribute(NodeId node, std::string_view name) override { return get(node, std::string(name)); }
    void setAttribute(NodeId node, std::string_view name, const std::string& value) override {
        nodes.at(node).attributes[std::string(name)] = value;
    }
    void removeAttribute(NodeId node, std::string_view name) override { nodes.at(node).attributes.erase(std::string(name)); }
    void setContent(NodeId node, const std::string& html) override { nodes.at(node).content = html; }
    void hide(NodeId node) override {
        Node& n = nodes.at(node);
        (n.inContainer ? n.containerHidden : n.hidden) = true;
    }
    void show(NodeId node) override {
        Node& n = nodes.at(node);
        (n.inContainer ? n.containerHidden : n.hidden) = false;
    }
    bool displayed(NodeId node) override { return !nodes.at(node).hiddenByShop && visible(node); }
    void release(NodeId node) override { ++nodes.at(node).releases; }
    void warn(const std::string& message) override { warnings.push_back(message); }

    // Parts: (node, part) -> content; (node, part, attribute) -> value.
    std::map<std::pair<NodeId, std::string>, std::string> partContent;
    std::map<std::tuple<NodeId, std::string, std::string>, std::string> partAttributes;
    void setPartContent(NodeId widget, const std::string& part, const std::string& html) override {
        partContent[{widget, part}] = html;
    }
    void setPartAttribute(NodeId widget, const std::string& part, std::string_view name, const std::string& value) override {
        partAttributes[{widget, part, std::string(name)}] = value;
    }
    void removePartAttribute(NodeId widget, const std::string& part, std::string_view name) override {
        partAttributes.erase({widget, part, std::string(name)});
    }
    // Scrolls asked for: (node, part, direction).
    std::vector<std::tuple<NodeId, std::string, int>> scrolls;
    void scrollPart(NodeId widget, const std::string& part, int direction) override { scrolls.emplace_back(widget, part, direction); }

    // The shop's plugin.
    bool canAddToCart = false;
    std::vector<std::pair<int, std::string>> cartCalls;  // (request id, sku)
    bool shopNavigates = false;
    std::vector<std::string> navigations;
    bool shopCanAddToCart() override { return canAddToCart; }
    void addToCart(int requestId, const std::string& sku) override { cartCalls.emplace_back(requestId, sku); }
    int pluginWatches = 0;
    void watchShopPlugin() override { ++pluginWatches; }
    bool navigateTo(const std::string& url) override {
        navigations.push_back(url);
        return shopNavigates;
    }
    std::string testGroup;
    std::string shopTestGroup() override { return testGroup; }
    std::vector<std::pair<NodeId, int>> observed;  // (node, widget key)
    void observeVisibility(NodeId node, int widgetKey) override { observed.emplace_back(node, widgetKey); }
    // Events for the shop's page: (node, type, detail JSON).
    std::vector<std::tuple<NodeId, std::string, std::string>> dispatched;
    void dispatch(NodeId node, const std::string& type, const std::string& detailJson) override {
        dispatched.emplace_back(node, type, detailJson);
    }

private:
    NodeId nextId_ = 1;
};

std::string itemJson(const std::string& sku, const std::string& name, int64_t price) {
    return R"({"sku":")" + sku + R"(","mainSku":")" + sku + R"(","name":")" + name + R"(","brand":"","url":"/p/)" + sku +
           R"(","image":"","price":)" + std::to_string(price) + "}";
}

// widgets: per widget, the items' JSON joined by commas ("" for no items).
std::string responseJson(const std::vector<std::string>& widgets, const std::string& currency = "EUR",
                         const std::string& locale = "de-DE") {
    std::string json = R"({"currency":")" + currency + R"(","locale":")" + locale + R"(","widgets":[)";
    for (size_t i = 0; i < widgets.size(); ++i) {
        if (i) json += ",";
        json += R"({"items":[)" + widgets[i] + "]}";
    }
    return json + "]}";
}

}  // namespace

TEST_CASE("SdkController::scan: an invalid widget is hidden with exactly one warning naming the attribute") {
    MemoryDom dom;
    NodeId noSku = dom.addWidget({{"data-svc-widget-id", "SIMILAR"}, {"data-touchpoint", "product"}});
    NodeId alsoNoSku = dom.addWidget({{"data-svc-widget-id", "SIMILAR"}, {"data-touchpoint", "product"}}, true);
    NodeId badTouchpoint = dom.addWidget({{"data-svc-widget-id", "SET"}, {"data-touchpoint", "pdp"}, {"data-sku", "A"}});
    SdkController controller(dom);

    ContentBatch batch = controller.scan();
    CHECK(batch.id == 0);
    CHECK(batch.query == "");
    CHECK(dom.nodes[noSku].hidden);
    CHECK(dom.nodes[alsoNoSku].containerHidden);  // the container is hidden, not the element
    CHECK_FALSE(dom.nodes[alsoNoSku].hidden);
    CHECK(dom.nodes[badTouchpoint].hidden);
    for (NodeId node : {noSku, alsoNoSku, badTouchpoint}) {
        CHECK(dom.state(node) == std::optional<std::string>("invalid"));
        CHECK(dom.nodes[node].releases == 1);
    }
    // Two widgets with the same problem: one warning; a different problem: its own warning.
    CHECK(dom.warnings == std::vector<std::string>{
                              "[svc] widget hidden: data-sku: required for SIMILAR",
                              "[svc] widget hidden: data-touchpoint: 'pdp' is not one of product, cart-layer, cart, content, category, search"});
    CHECK(controller.pendingWidgetCount() == 0);
}

TEST_CASE("SdkController::scan: valid widgets in page order, one query, marked loading; a second scan claims nothing") {
    MemoryDom dom;
    NodeId first = dom.addSimilar("A&B");
    NodeId invalid = dom.addWidget({{"data-svc-widget-id", "nope"}, {"data-touchpoint", "product"}});
    NodeId second = dom.addWidget({{"data-svc-widget-id", "SET-Custom"}, {"data-touchpoint", "cart"}, {"data-set-id", "look-1"}});
    NodeId notAWidget = dom.addWidget({{"class", "teaser"}});
    SdkController controller(dom);

    ContentBatch batch = controller.scan();
    CHECK(batch.id == 1);
    CHECK(batch.query == "w=SIMILAR&t=product&s=A%26B&i=&w=SET-Custom&t=cart&s=&i=look-1");
    CHECK(dom.state(first) == std::optional<std::string>("loading"));
    CHECK(dom.state(second) == std::optional<std::string>("loading"));
    CHECK(dom.state(invalid) == std::optional<std::string>("invalid"));
    CHECK(dom.state(notAWidget) == std::nullopt);
    CHECK(dom.visible(first));
    CHECK(dom.visible(second));
    CHECK(controller.pendingWidgetCount() == 2);
    CHECK(dom.warnings.size() == 1);

    ContentBatch again = controller.scan();
    CHECK(again.id == 0);
    CHECK(again.query == "");
    CHECK(controller.pendingWidgetCount() == 2);
    CHECK(dom.warnings.size() == 1);

    // A widget added later is claimed by the next scan, in a new batch.
    NodeId late = dom.addSimilar("C");
    ContentBatch third = controller.scan();
    CHECK(third.id == 2);
    CHECK(third.query == "w=SIMILAR&t=product&s=C&i=");
    CHECK(dom.state(late) == std::optional<std::string>("loading"));
}

TEST_CASE("SdkController::scan: at most kMaxWidgets widgets per batch, the rest in the next scan") {
    MemoryDom dom;
    std::vector<NodeId> nodes;
    for (int i = 0; i < 30; ++i) nodes.push_back(dom.addSimilar("S" + std::to_string(i)));
    SdkController controller(dom);
    ContentBatch first = controller.scan();
    CHECK(first.id == 1);
    CHECK(controller.pendingWidgetCount() == 24);
    CHECK(dom.state(nodes[23]) == std::optional<std::string>("loading"));
    CHECK(dom.state(nodes[24]) == std::nullopt);
    ContentBatch second = controller.scan();
    CHECK(second.id == 2);
    CHECK(second.query.rfind("w=SIMILAR&t=product&s=S24&i=", 0) == 0);
    CHECK(controller.pendingWidgetCount() == 30);
}

TEST_CASE("SdkController::applyContent renders widgets with items and hides those without") {
    MemoryDom dom;
    NodeId withItems = dom.addSimilar("A", true);
    NodeId withoutItems = dom.addSimilar("B", true);
    SdkController controller(dom);
    ContentBatch batch = controller.scan();
    REQUIRE(batch.id != 0);

    const std::string response =
        responseJson({itemJson("X-1", "Blue <Jeans>", 4999) + "," + itemJson("X-2", "Red Shirt", 123456), ""}, "USD", "en-US");
    controller.applyContent(batch.id, response);

    CHECK(dom.state(withItems) == std::optional<std::string>("rendered"));
    CHECK(dom.visible(withItems));
    const std::string& html = dom.nodes[withItems].content;
    CHECK(html.find("Blue &lt;Jeans&gt;") != std::string::npos);
    CHECK(html.find("Red Shirt") != std::string::npos);
    CHECK(html.find("$1,234.56") != std::string::npos);  // the response's currency and locale
    // Exactly what the renderer makes of the response.
    auto parsed = svc::ContentResponse::fromJson(response);
    REQUIRE(parsed.ok());
    svc::WidgetSpec spec;
    spec.sku = "A";
    CHECK(html == svc::WidgetRenderer(svc::MoneyFormatter("USD", "en-US")).render(spec, parsed->widgets[0]));

    CHECK(dom.state(withoutItems) == std::optional<std::string>("empty"));
    CHECK(dom.nodes[withoutItems].containerHidden);
    CHECK(dom.nodes[withoutItems].content == "");
    CHECK(dom.warnings.empty());
    CHECK(controller.pendingWidgetCount() == 0);

    // The batch is done: a repeated answer changes nothing.
    controller.applyContent(batch.id, responseJson({"", ""}));
    CHECK(dom.state(withItems) == std::optional<std::string>("rendered"));
    CHECK(dom.visible(withItems));
}

TEST_CASE("SdkController::applyContent: a widget hidden before is shown when it gets content") {
    MemoryDom dom;
    NodeId node = dom.addSimilar("A");
    dom.nodes[node].hidden = true;
    SdkController controller(dom);
    ContentBatch batch = controller.scan();
    controller.applyContent(batch.id, responseJson({itemJson("X", "Name", 100)}));
    CHECK(dom.visible(node));
    CHECK(dom.state(node) == std::optional<std::string>("rendered"));
}

TEST_CASE("SdkController::applyContent: an unusable response hides the whole batch with one warning") {
    struct BadResponse {
        const char* name;
        std::string body;
        std::string warning;
    };
    const std::vector<BadResponse> cases{
        {"not JSON", "<html>502</html>", "[svc] content unavailable (content: not a JSON object)"},
        {"malformed item", responseJson({itemJson("X", "N", 1), R"({"sku":"Y"})"}),
         "[svc] content unavailable (content.widgets[1].items[0]: needs string sku, name and url)"},
        {"too few widgets", responseJson({itemJson("X", "N", 1)}),
         "[svc] content unavailable (content response has the wrong number of widgets)"},
        {"too many widgets", responseJson({"", "", ""}),
         "[svc] content unavailable (content response has the wrong number of widgets)"},
    };
    for (const auto& c : cases) {
        SUBCASE(c.name) {
            MemoryDom dom;
            NodeId a = dom.addSimilar("A");
            NodeId b = dom.addSimilar("B");
            SdkController controller(dom);
            ContentBatch batch = controller.scan();
            controller.applyContent(batch.id, c.body);
            for (NodeId node : {a, b}) {
                CHECK(dom.state(node) == std::optional<std::string>("failed"));
                CHECK_FALSE(dom.visible(node));
                CHECK(dom.nodes[node].content == "");
            }
            CHECK(dom.warnings == std::vector<std::string>{c.warning});
            CHECK(controller.pendingWidgetCount() == 0);
        }
    }
}

TEST_CASE("SdkController::failBatch hides the batch and warns once per cause") {
    MemoryDom dom;
    NodeId a = dom.addSimilar("A");
    SdkController controller(dom);
    ContentBatch first = controller.scan();
    NodeId b = dom.addSimilar("B");
    ContentBatch second = controller.scan();
    NodeId c = dom.addSimilar("C");
    ContentBatch third = controller.scan();
    REQUIRE(first.id != second.id);
    REQUIRE(second.id != third.id);

    controller.failBatch(first.id, "network error");
    controller.failBatch(second.id, "network error");
    controller.failBatch(third.id, "HTTP 503");
    for (NodeId node : {a, b, c}) {
        CHECK(dom.state(node) == std::optional<std::string>("failed"));
        CHECK_FALSE(dom.visible(node));
    }
    CHECK(dom.warnings == std::vector<std::string>{"[svc] network error", "[svc] HTTP 503"});
    CHECK(controller.pendingWidgetCount() == 0);

    // Unknown or finished batches are ignored, also for warnings.
    controller.failBatch(first.id, "late cause");
    controller.failBatch(99, "unknown batch");
    CHECK(dom.warnings.size() == 2);
}

TEST_CASE("SdkController::updateWidgetSku re-claims the widgets of one type with the new SKU") {
    MemoryDom dom;
    NodeId similarOne = dom.addSimilar("OLD");
    NodeId set = dom.addWidget({{"data-svc-widget-id", "SET"}, {"data-touchpoint", "product"}, {"data-sku", "OLD"}});
    NodeId similarTwo = dom.addSimilar("OLD", true);
    SdkController controller(dom);
    ContentBatch batch = controller.scan();
    controller.applyContent(batch.id, responseJson({itemJson("X", "N", 1), itemJson("Y", "N", 1), ""}));
    REQUIRE(dom.state(similarTwo) == std::optional<std::string>("empty"));

    ContentBatch update = controller.updateWidgetSku("SIMILAR", "NEW 1");
    CHECK(update.id == batch.id + 1);
    CHECK(update.query == "w=SIMILAR&t=product&s=NEW%201&i=&w=SIMILAR&t=product&s=NEW%201&i=");
    CHECK(dom.get(similarOne, "data-sku") == std::optional<std::string>("NEW 1"));
    CHECK(dom.get(similarTwo, "data-sku") == std::optional<std::string>("NEW 1"));
    CHECK(dom.get(set, "data-sku") == std::optional<std::string>("OLD"));
    CHECK(dom.state(similarOne) == std::optional<std::string>("loading"));
    CHECK(dom.state(similarTwo) == std::optional<std::string>("loading"));
    CHECK(dom.state(set) == std::optional<std::string>("rendered"));
    CHECK(controller.pendingWidgetCount() == 2);

    // The new content replaces the old and shows the widget that was empty.
    controller.applyContent(update.id, responseJson({itemJson("N-1", "New One", 1), itemJson("N-2", "New Two", 1)}));
    CHECK(dom.nodes[similarOne].content.find("New One") != std::string::npos);
    CHECK(dom.nodes[similarTwo].content.find("New Two") != std::string::npos);
    CHECK(dom.visible(similarTwo));
    CHECK(dom.warnings.empty());
}

TEST_CASE("SdkController::updateWidgetSku: a widget still loading leaves its earlier batch") {
    MemoryDom dom;
    NodeId node = dom.addSimilar("OLD");
    SdkController controller(dom);
    ContentBatch first = controller.scan();
    ContentBatch update = controller.updateWidgetSku("SIMILAR", "NEW");
    CHECK(update.id == first.id + 1);
    CHECK(update.query == "w=SIMILAR&t=product&s=NEW&i=");
    CHECK(controller.pendingWidgetCount() == 1);  // counted once, in the new batch
    controller.applyContent(update.id, responseJson({itemJson("N", "New content", 1)}));
    CHECK(dom.state(node) == std::optional<std::string>("rendered"));
    CHECK(dom.nodes[node].content.find("New content") != std::string::npos);
    CHECK(controller.pendingWidgetCount() == 0);
}

// Regression test (bug found and fixed): sdk/SdkController.cpp updateWidgetSku erases a loading widget from its earlier
// batch, but applyContent then compares the response's widget count (the server answers
// for every widget it was asked for) with the shrunken batch: the counts differ, so the
// other widgets of that batch are hidden as "failed" with the warning "content unavailable
// (content response has the wrong number of widgets)" instead of being rendered. (Even
// with the count check relaxed, response index i no longer matches batch index i.)
TEST_CASE("SdkController: the other widgets of a batch still render after updateWidgetSku took one out") {
    MemoryDom dom;
    NodeId similar = dom.addSimilar("OLD");
    NodeId set = dom.addWidget({{"data-svc-widget-id", "SET"}, {"data-touchpoint", "product"}, {"data-sku", "S"}});
    SdkController controller(dom);
    ContentBatch first = controller.scan();
    ContentBatch update = controller.updateWidgetSku("SIMILAR", "NEW");
    REQUIRE(update.id != 0);

    // The server answers the first request for both widgets it was asked for.
    controller.applyContent(first.id, responseJson({itemJson("O", "Old similar", 1), itemJson("T", "Set item", 1)}));
    CHECK(dom.state(set) == std::optional<std::string>("rendered"));
    CHECK(dom.nodes[set].content.find("Set item") != std::string::npos);
    CHECK(dom.state(similar) == std::optional<std::string>("loading"));  // waits for its own batch
    CHECK(dom.nodes[similar].content.find("Old similar") == std::string::npos);
    CHECK(dom.warnings.empty());
}

TEST_CASE("SdkController::updateWidgetSku refuses unknown widget types and empty SKUs with one warning") {
    struct RefusalCase {
        std::string type;
        std::string sku;
        std::string warning;
    };
    const std::vector<RefusalCase> cases{
        {"FOO", "A", "[svc] updateWidgetSku: widgetId 'FOO' is not one of SET, SIMILAR, SET-Custom"},
        {"similar", "A", "[svc] updateWidgetSku: widgetId 'similar' is not one of SET, SIMILAR, SET-Custom"},
        {"SET-Compose", "A", "[svc] updateWidgetSku: widgetId 'SET-Compose' is not one of SET, SIMILAR, SET-Custom"},
        {"SIMILAR", "", "[svc] updateWidgetSku: sku must be a non-empty string"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.warning);
        MemoryDom dom;
        NodeId node = dom.addSimilar("OLD");
        SdkController controller(dom);
        ContentBatch first = controller.scan();
        ContentBatch refused = controller.updateWidgetSku(c.type, c.sku);
        CHECK(refused.id == 0);
        CHECK(refused.query == "");
        ContentBatch refusedAgain = controller.updateWidgetSku(c.type, c.sku);
        CHECK(refusedAgain.id == 0);
        CHECK(dom.warnings == std::vector<std::string>{c.warning});  // once, not per call
        CHECK(dom.get(node, "data-sku") == std::optional<std::string>("OLD"));
        CHECK(dom.state(node) == std::optional<std::string>("loading"));
        CHECK(controller.pendingWidgetCount() == 1);
        (void)first;
    }
}

TEST_CASE("SdkController::updateWidgetSku also repairs a widget that was invalid for lack of a SKU") {
    MemoryDom dom;
    NodeId node = dom.addWidget({{"data-svc-widget-id", "SET"}, {"data-touchpoint", "product"}});
    SdkController controller(dom);
    CHECK(controller.scan().id == 0);
    REQUIRE(dom.state(node) == std::optional<std::string>("invalid"));
    ContentBatch batch = controller.updateWidgetSku("SET", "A");
    CHECK(batch.id != 0);
    CHECK(batch.query == "w=SET&t=product&s=A&i=");
    CHECK(dom.state(node) == std::optional<std::string>("loading"));
}

namespace {

std::string itemWithAlternatives(const std::string& sku, const std::string& name, const std::vector<std::string>& alternatives) {
    std::string json = itemJson(sku, name, 1000);
    json.pop_back();
    json += R"(,"alternatives":[)";
    for (size_t i = 0; i < alternatives.size(); ++i) {
        if (i) json += ",";
        json += itemJson(alternatives[i], "Alt " + alternatives[i], 2000);
    }
    return json + "]}";
}

// One rendered SET widget: position 0 without, position 1 with two alternatives.
struct RenderedSet {
    MemoryDom dom;
    NodeId node;
    SdkController controller{dom};
    int key = 0;

    explicit RenderedSet(bool canAddToCart) {
        dom.canAddToCart = canAddToCart;
        node = dom.addWidget({{"data-svc-widget-id", "SET"}, {"data-touchpoint", "product"}, {"data-sku", "A"}});
        ContentBatch batch = controller.scan();
        controller.applyContent(batch.id, responseJson({itemJson("P-1", "Shirt", 1000) + "," +
                                                        itemWithAlternatives("P-2", "Jeans", {"Q-1", "Q-2"})}));
        key = std::stoi(*dom.get(node, "data-svc-key"));
    }
};

}  // namespace

TEST_CASE("SdkController: a rendered widget gets a key and keeps its handle until it is re-claimed") {
    RenderedSet set(false);
    CHECK(set.dom.state(set.node) == std::optional<std::string>("rendered"));
    CHECK(set.key >= 1);
    CHECK(set.dom.nodes[set.node].releases == 0);
    CHECK(set.controller.renderedWidgetCount() == 1);
    // Without addToCart in the shop there are no buttons.
    CHECK(set.dom.nodes[set.node].content.find("svc-card__cart") == std::string::npos);

    ContentBatch again = set.controller.updateWidgetSku("SET", "B");
    CHECK(again.id != 0);
    CHECK(set.controller.renderedWidgetCount() == 0);
    CHECK(set.dom.get(set.node, "data-svc-key") == std::nullopt);
    // The in-memory page hands out one id per node: the old handle and the re-claim's handle.
    CHECK(set.dom.nodes[set.node].releases == 2);
    CHECK(set.controller.handleAction(set.key, "alt", 1, 1, true) == svc::ActionOutcome::Ignored);
}

TEST_CASE("SdkController: picking an alternative shows it in its position and moves the pressed state") {
    RenderedSet set(true);
    CHECK(set.controller.handleAction(set.key, "alt", 1, 2, true) == svc::ActionOutcome::Handled);
    const std::string& body = set.dom.partContent[{set.node, "c1"}];
    CHECK(body.find("Alt Q-2") != std::string::npos);
    CHECK(body.find("svc-card__cart") != std::string::npos);
    CHECK(set.dom.partAttributes[{set.node, "p1", "data-svc-sku"}] == "Q-2");
    CHECK(set.dom.partAttributes[{set.node, "a1-0", "aria-pressed"}] == "false");
    CHECK(set.dom.partAttributes[{set.node, "a1-2", "aria-pressed"}] == "true");

    // Add to cart takes the chosen product's SKU, exactly.
    CHECK(set.controller.handleAction(set.key, "cart", 1, 0, true) == svc::ActionOutcome::Handled);
    REQUIRE(set.dom.cartCalls.size() == 1);
    CHECK(set.dom.cartCalls[0].second == "Q-2");

    // Back to the item itself.
    CHECK(set.controller.handleAction(set.key, "alt", 1, 0, true) == svc::ActionOutcome::Handled);
    CHECK(set.dom.partAttributes[{set.node, "p1", "data-svc-sku"}] == "P-2");
    CHECK(set.dom.partAttributes[{set.node, "a1-2", "aria-pressed"}] == "false");
    CHECK(set.dom.partAttributes[{set.node, "a1-0", "aria-pressed"}] == "true");

    // Out of range or unknown: ignored, nothing changes.
    for (auto [position, choice] : std::vector<std::pair<int, int>>{{1, 3}, {1, -1}, {0, 1}, {2, 0}, {-1, 0}}) {
        CAPTURE(position);
        CAPTURE(choice);
        CHECK(set.controller.handleAction(set.key, "alt", position, choice, true) == svc::ActionOutcome::Ignored);
    }
    CHECK(set.controller.handleAction(set.key + 1, "alt", 1, 1, true) == svc::ActionOutcome::Ignored);
    CHECK(set.controller.handleAction(set.key, "explode", 1, 1, true) == svc::ActionOutcome::Ignored);
    CHECK(set.dom.partAttributes[{set.node, "p1", "data-svc-sku"}] == "P-2");
}

TEST_CASE("SdkController: the carousel's previous and next controls scroll the widget's list, nothing else") {
    RenderedSet set(true);
    const std::string& html = set.dom.nodes.at(set.node).content;
    CHECK(html.find("data-svc-action=\"prev\" aria-label=\"Previous products\"") != std::string::npos);
    CHECK(html.find("data-svc-action=\"next\" aria-label=\"Next products\"") != std::string::npos);
    CHECK(html.find("data-svc-part=\"" + svc::WidgetRenderer::listPart() + "\"") != std::string::npos);
    // The controls are not about one product: no position needed, no event recorded.
    CHECK(set.controller.handleAction(set.key, "next", -1, 0, true) == svc::ActionOutcome::Handled);
    CHECK(set.controller.handleAction(set.key, "prev", -1, 0, true) == svc::ActionOutcome::Handled);
    using Scroll = std::tuple<NodeId, std::string, int>;
    CHECK(set.dom.scrolls == std::vector<Scroll>{{set.node, "list", 1}, {set.node, "list", -1}});
    CHECK(set.controller.handleAction(set.key + 1, "next", -1, 0, true) == svc::ActionOutcome::Ignored);
    CHECK(set.dom.scrolls.size() == 2);
}

TEST_CASE("SdkController: add to cart shows success or failure in the position's status") {
    RenderedSet set(true);
    CHECK(set.dom.nodes[set.node].content.find("aria-label=\"Add to cart: Shirt\"") != std::string::npos);
    CHECK(set.controller.handleAction(set.key, "cart", 0, 0, true) == svc::ActionOutcome::Handled);
    CHECK(set.controller.handleAction(set.key, "cart", 1, 0, true) == svc::ActionOutcome::Handled);
    REQUIRE(set.dom.cartCalls.size() == 2);
    CHECK(set.dom.cartCalls[0].second == "P-1");
    CHECK(set.dom.cartCalls[1].second == "P-2");
    CHECK(set.dom.cartCalls[0].first != set.dom.cartCalls[1].first);

    set.controller.cartResult(set.dom.cartCalls[1].first, svc::CartOutcome::Failed);
    set.controller.cartResult(set.dom.cartCalls[0].first, svc::CartOutcome::Added);
    CHECK(set.dom.partContent[{set.node, "s0"}] == "Added to cart");
    CHECK(set.dom.partContent[{set.node, "s1"}] == "Could not add to cart. Please try again.");
    // An answer given twice, or for no request, changes nothing.
    set.controller.cartResult(set.dom.cartCalls[0].first, svc::CartOutcome::Failed);
    set.controller.cartResult(999, svc::CartOutcome::Failed);
    CHECK(set.dom.partContent[{set.node, "s0"}] == "Added to cart");

    // The shop took its function away after rendering: failure, and no call.
    set.dom.canAddToCart = false;
    CHECK(set.controller.handleAction(set.key, "cart", 0, 0, true) == svc::ActionOutcome::Handled);
    CHECK(set.dom.cartCalls.size() == 2);
    CHECK(set.dom.partContent[{set.node, "s0"}] == "Could not add to cart. Please try again.");
    CHECK(set.dom.warnings.empty());
}

TEST_CASE("SdkController: product links go to the shop's navigateTo when it takes them, else the browser follows them") {
    RenderedSet set(false);
    CHECK(set.controller.handleAction(set.key, "open", 0, 0, true) == svc::ActionOutcome::Ignored);
    CHECK(set.dom.navigations == std::vector<std::string>{"/p/P-1"});
    set.dom.shopNavigates = true;
    CHECK(set.controller.handleAction(set.key, "open", 0, 0, true) == svc::ActionOutcome::Handled);
    // A click with a modifier opens a tab: the shop's router is not asked.
    CHECK(set.controller.handleAction(set.key, "open", 0, 0, false) == svc::ActionOutcome::Ignored);
    CHECK(set.dom.navigations.size() == 2);
    // The link of the chosen alternative.
    set.controller.handleAction(set.key, "alt", 1, 1, true);
    CHECK(set.controller.handleAction(set.key, "open", 1, 0, true) == svc::ActionOutcome::Handled);
    CHECK(set.dom.navigations.back() == "/p/Q-1");
}

namespace {

// The events of all bodies, parsed by the server's own parser: what the server would store.
std::vector<svc::WidgetEvent> serverSees(const std::vector<std::string>& bodies) {
    std::vector<svc::WidgetEvent> events;
    for (const auto& body : bodies) {
        auto parsed = svc::parseEvents(body);
        CAPTURE(body);
        REQUIRE(parsed.ok());
        for (const auto& event : parsed.events.events) events.push_back(std::get<svc::WidgetEvent>(event));
    }
    return events;
}

svc::VisitorIds visitorIds() {
    svc::VisitorIds ids;
    ids.cid = std::string(32, 'c');
    ids.sid = std::string(32, 'e');
    ids.variant = "default";
    return ids;
}

}  // namespace

TEST_CASE("SdkController: view, click and add-to-cart events carry cid, sid, widget, touchpoint, SKU, set, test group, variant") {
    RenderedSet set(true);
    set.controller.setVisitor(visitorIds());
    set.dom.testGroup = "B";
    REQUIRE(set.dom.observed == std::vector<std::pair<NodeId, int>>{{set.node, set.key}});

    // Not yet a view: a third visible, a small part of the screen.
    CHECK_FALSE(set.controller.widgetVisibility(set.key, 0.3, 0.1));
    CHECK(set.controller.queuedEventCount() == 0);
    CHECK(set.controller.widgetVisibility(set.key, 0.5, 0.1));
    CHECK(set.controller.widgetVisibility(set.key, 1.0, 1.0));  // counted once
    CHECK(set.controller.queuedEventCount() == 1);

    set.controller.handleAction(set.key, "open", 0, 0, false);  // a click that opens a tab counts too
    set.controller.handleAction(set.key, "alt", 1, 1, true);    // picking an alternative is no interaction
    set.controller.handleAction(set.key, "cart", 1, 0, true);
    set.controller.handleAction(set.key, "cart", 0, 0, true);
    REQUIRE(set.dom.cartCalls.size() == 2);
    set.controller.cartResult(set.dom.cartCalls[0].first, svc::CartOutcome::Added);
    set.controller.cartResult(set.dom.cartCalls[1].first, svc::CartOutcome::Failed);  // a failed add is not an add-to-cart

    auto events = serverSees(set.controller.drainEvents());
    REQUIRE(events.size() == 3);
    CHECK(events[0].type == svc::WidgetEventType::View);
    CHECK(events[0].sku == std::optional<std::string>("A"));  // the product the widget was shown for
    CHECK(events[1].type == svc::WidgetEventType::Click);
    CHECK(events[1].sku == std::optional<std::string>("P-1"));
    CHECK(events[2].type == svc::WidgetEventType::AddToCart);
    CHECK(events[2].sku == std::optional<std::string>("Q-1"));  // the chosen alternative
    for (const auto& event : events) {
        CHECK(event.cid == std::string(32, 'c'));
        CHECK(event.sid == std::optional<std::string>(std::string(32, 'e')));
        CHECK(event.widget == svc::WidgetType::Set);
        CHECK(event.touchpoint == svc::Touchpoint::Product);
        CHECK(event.testGroup == std::optional<std::string>("B"));
        CHECK(event.variant == std::optional<std::string>("default"));
    }
    CHECK(set.controller.queuedEventCount() == 0);
    CHECK(set.controller.drainEvents().empty());
}

TEST_CASE("SdkController: the viewport rule, demo widgets untracked, gone widgets stop being observed") {
    CHECK(svc::WidgetEventLog::isView(0.5, 0.0));
    CHECK(svc::WidgetEventLog::isView(0.2, 0.5));  // taller than the screen, covering half of it
    CHECK_FALSE(svc::WidgetEventLog::isView(0.49, 0.49));

    MemoryDom dom;
    NodeId demo = dom.addWidget({{"data-svc-widget-id", "SET-Compose"}, {"data-touchpoint", "product"}});
    SdkController controller(dom);
    controller.setVisitor(visitorIds());
    controller.setDemoMode(true, "/sdk");  // SET-Compose shows the SDK's own demo look (ADR 0022), no request
    CHECK(controller.scan().id == 0);
    REQUIRE(dom.state(demo) == std::optional<std::string>("rendered"));
    CHECK(dom.observed.empty());
    int key = std::stoi(*dom.get(demo, "data-svc-key"));
    controller.handleAction(key, "open", 0, 0, true);
    CHECK(controller.queuedEventCount() == 0);
    CHECK(controller.widgetVisibility(999, 1.0, 1.0));  // unknown: stop observing
}

TEST_CASE("WidgetEventLog: bodies of at most 100 events and 32 KiB, each accepted by the server's parser") {
    svc::WidgetEventLog log;
    svc::WidgetSpec similar;
    similar.type = svc::WidgetType::Similar;
    similar.sku = "A";
    svc::EventContext context{std::string(32, 'c'), std::string(32, 'e'), "default", ""};
    for (int i = 0; i < 250; ++i) CHECK(log.record(svc::WidgetEventType::Click, similar, "SKU-" + std::to_string(i), "", context));
    auto bodies = log.drain();
    REQUIRE(bodies.size() == 3);
    auto events = serverSees(bodies);
    REQUIRE(events.size() == 250);
    CHECK(events[249].sku == std::optional<std::string>("SKU-249"));
    CHECK(events[0].testGroup == std::nullopt);  // empty values are left out, not sent empty

    // Long values: the byte limit splits sooner.
    std::string longSku(190, 'x');
    for (int i = 0; i < 100; ++i) log.record(svc::WidgetEventType::Click, similar, longSku, std::string(190, 's'), context);
    auto longBodies = log.drain();
    CHECK(longBodies.size() > 1);
    for (const auto& body : longBodies) CHECK(body.size() <= svc::WidgetEventLog::kMaxBodyBytes);
    CHECK(serverSees(longBodies).size() == 100);

    // What the server would refuse is not sent: a required SKU missing or oversized drops the event,
    // an odd optional value is left out.
    CHECK_FALSE(log.record(svc::WidgetEventType::Click, similar, "", "", context));
    CHECK_FALSE(log.record(svc::WidgetEventType::Click, similar, std::string(201, 'x'), "", context));
    CHECK_FALSE(log.record(svc::WidgetEventType::Click, similar, "bad\nsku", "", context));
    CHECK(log.record(svc::WidgetEventType::View, similar, "", "set-1", context));  // a view may name only its set
    svc::EventContext odd = context;
    odd.testGroup = "tab\there";
    CHECK(log.record(svc::WidgetEventType::Click, similar, "S", "", odd));
    auto oddEvents = serverSees(log.drain());
    REQUIRE(oddEvents.size() == 2);
    CHECK(oddEvents[0].setId == std::optional<std::string>("set-1"));
    CHECK(oddEvents[1].testGroup == std::nullopt);
    svc::WidgetSpec demo;
    demo.type = svc::WidgetType::SetCompose;
    CHECK_FALSE(log.record(svc::WidgetEventType::View, demo, "S", "", context));
}

TEST_CASE("SdkController::track: svclytics('purchase') warns once per problem and sends an order once per page") {
    MemoryDom dom;
    SdkController controller(dom);
    controller.setVisitor(visitorIds());
    const std::string good = R"({"customerid":"anonymous","orderid":"O-9","products":[{"sku":"A","amount":1,"price":500}]})";
    std::string body = controller.track("purchase", good);
    REQUIRE_FALSE(body.empty());
    auto parsed = svc::parseEvents(body);
    REQUIRE(parsed.ok());
    CHECK(std::get<svc::PurchaseEvent>(parsed.events.events[0]).cid == std::optional<std::string>(std::string(32, 'c')));
    CHECK(controller.track("purchase", good).empty());
    CHECK(controller.track("purchase", good).empty());
    CHECK(dom.warnings == std::vector<std::string>{"[svc] svclytics('purchase'): orderid 'O-9' was sent already; an order counts once"});

    const std::string bad = R"({"customerid":"anonymous","orderid":"O-10","products":[{"sku":7,"amount":1,"price":500}]})";
    CHECK(controller.track("purchase", bad).empty());
    CHECK(controller.track("purchase", bad).empty());
    CHECK(dom.warnings.size() == 2);
    CHECK(dom.warnings[1] == "[svc] svclytics('purchase'): products[0].sku: must be a string (the SKU as a string, exactly as in "
                             "the product feed), got 7; the order is not sent");
    // Fixed, the same order goes out: a refused payload was never sent.
    CHECK_FALSE(controller.track("purchase", R"({"customerid":"anonymous","orderid":"O-10","products":[{"sku":"7","amount":1,"price":500}]})").empty());

    CHECK(controller.track("pageview", "{}").empty());
    CHECK(dom.warnings.back() == "[svc] svclytics: unknown event 'pageview'; the SDK sends 'purchase'");
}

TEST_CASE("SdkController: a widget the shop hid is rendered into its hiding and never counts a view while hidden") {
    // The shop's A/B control group: the container is hidden by the shop (hidden, display:none
    // or a hidden ancestor); svc's show takes away only its own marker.
    MemoryDom dom;
    NodeId node = dom.addSimilar("A", true);
    dom.nodes[node].hiddenByShop = true;
    SdkController controller(dom);
    controller.setVisitor(visitorIds());
    ContentBatch batch = controller.scan();
    controller.applyContent(batch.id, responseJson({itemJson("P-1", "Shirt", 1000)}));
    REQUIRE(dom.state(node) == std::optional<std::string>("rendered"));
    CHECK(dom.nodes[node].hiddenByShop);
    int key = std::stoi(*dom.get(node, "data-svc-key"));
    // The observer may report the widget's box on screen; the page does not display it.
    CHECK_FALSE(controller.widgetVisibility(key, 1.0, 0.6));
    CHECK(controller.queuedEventCount() == 0);
    // The shop shows it (the test ended): now it is a view, once.
    dom.nodes[node].hiddenByShop = false;
    CHECK(controller.widgetVisibility(key, 1.0, 0.6));
    CHECK(controller.queuedEventCount() == 1);
}

TEST_CASE("SdkController: buttons follow a shop plugin that arrives after the first render, with the chosen alternative") {
    RenderedSet set(false);
    CHECK(set.dom.pluginWatches == 1);
    CHECK(set.dom.nodes[set.node].content.find("svc-card__cart") == std::string::npos);
    set.controller.handleAction(set.key, "alt", 1, 2, true);
    set.dom.partContent.clear();

    // Still no addToCart: nothing changes.
    set.controller.shopPluginReady();
    CHECK(set.dom.partContent.empty());

    set.dom.canAddToCart = true;
    set.controller.shopPluginReady();
    const std::string& first = set.dom.partContent[{set.node, "c0"}];
    const std::string& second = set.dom.partContent[{set.node, "c1"}];
    CHECK(first.find("aria-label=\"Add to cart: Shirt\"") != std::string::npos);
    CHECK(first.find("data-svc-part=\"s0\"") != std::string::npos);
    CHECK(second.find("aria-label=\"Add to cart: Alt Q-2\"") != std::string::npos);  // the shown choice
    CHECK(set.controller.handleAction(set.key, "cart", 1, 0, true) == svc::ActionOutcome::Handled);
    REQUIRE(set.dom.cartCalls.size() == 1);
    CHECK(set.dom.cartCalls[0].second == "Q-2");

    // Widgets rendered once the plugin exists have buttons at once: no watching again.
    set.dom.partContent.clear();
    set.controller.shopPluginReady();
    CHECK(set.dom.partContent.empty());
    NodeId later = set.dom.addSimilar("B");
    ContentBatch batch = set.controller.scan();
    set.controller.applyContent(batch.id, responseJson({itemJson("P-3", "Coat", 1000)}));
    CHECK(set.dom.nodes[later].content.find("svc-card__cart") != std::string::npos);
    CHECK(set.dom.pluginWatches == 1);
}

TEST_CASE("SdkController: a pending add-to-cart keeps its button disabled and busy; an answer that is no promise claims nothing") {
    RenderedSet set(true);
    set.controller.setVisitor(visitorIds());
    using Attribute = std::tuple<NodeId, std::string, std::string>;
    auto busy = [&](const std::string& button) {
        return set.dom.partAttributes.count(Attribute{set.node, button, "disabled"}) &&
               set.dom.partAttributes[Attribute{set.node, button, "aria-disabled"}] == "true" &&
               set.dom.partAttributes[Attribute{set.node, button, "aria-busy"}] == "true";
    };
    auto untouched = [&](const std::string& button) {
        for (const char* name : {"disabled", "aria-disabled", "aria-busy"}) {
            if (set.dom.partAttributes.count(Attribute{set.node, button, name})) return false;
        }
        return true;
    };
    CHECK(set.controller.handleAction(set.key, "cart", 0, 0, true) == svc::ActionOutcome::Handled);
    CHECK(busy("b0"));
    CHECK(untouched("b1"));
    // A second click while pending (the browser delivered it anyway) adds nothing twice.
    CHECK(set.controller.handleAction(set.key, "cart", 0, 0, true) == svc::ActionOutcome::Handled);
    REQUIRE(set.dom.cartCalls.size() == 1);
    set.controller.cartResult(set.dom.cartCalls[0].first, svc::CartOutcome::Added);
    CHECK(untouched("b0"));
    CHECK(set.dom.partContent[{set.node, "s0"}] == "Added to cart");

    // The shop's addToCart returned no promise: one warning, no "Added to cart", no add-to-cart event.
    for (int round = 0; round < 2; ++round) {
        CHECK(set.controller.handleAction(set.key, "cart", 1, 0, true) == svc::ActionOutcome::Handled);
        CHECK(busy("b1"));
        set.controller.cartResult(set.dom.cartCalls.back().first, svc::CartOutcome::NotAPromise);
        CHECK(untouched("b1"));
        CHECK(set.dom.partContent[{set.node, "s1"}] == "");
    }
    CHECK(set.dom.warnings == std::vector<std::string>{
                                  "[svc] _svc_shop_plugin.addToCart must return a promise that resolves when the product is in "
                                  "the cart; it returned none, so the widget cannot say whether it was added"});
    auto events = serverSees(set.controller.drainEvents());
    REQUIRE(events.size() == 1);
    CHECK(events[0].type == svc::WidgetEventType::AddToCart);
    CHECK(events[0].sku == std::optional<std::string>("P-1"));
}

namespace {

// The events the shop's page got, as "type detail" lines.
std::vector<std::string> eventsOf(const MemoryDom& dom) {
    std::vector<std::string> lines;
    for (const auto& [node, type, detail] : dom.dispatched) lines.push_back(type + " " + detail);
    return lines;
}

}  // namespace

TEST_CASE("SdkController: svc:rendered and svc:hidden (with the reason) on each widget, in the order things happened") {
    MemoryDom dom;
    NodeId invalid = dom.addWidget({{"data-svc-widget-id", "SIMILAR"}, {"data-touchpoint", "product"}});
    NodeId compose = dom.addWidget({{"data-svc-widget-id", "SET-Compose"}, {"data-touchpoint", "product"}});
    NodeId shown = dom.addSimilar("A", true);
    NodeId empty = dom.addSimilar("B\"", true);
    SdkController controller(dom);
    ContentBatch batch = controller.scan();
    controller.applyContent(batch.id, responseJson({itemJson("P-1", "Shirt", 1000) + "," + itemJson("P-2", "Jeans", 2000), ""}));
    NodeId failed = dom.addSimilar("C");
    ContentBatch later = controller.scan();
    controller.failBatch(later.id, "content request timed out after 3000 ms; widgets hidden");

    CHECK(eventsOf(dom) == std::vector<std::string>{
        R"(svc:hidden {"widgetId":"SIMILAR","touchpoint":"product","sku":"","reason":"invalid","message":"data-sku: required for SIMILAR"})",
        R"(svc:hidden {"widgetId":"SET-Compose","touchpoint":"product","sku":"","reason":"demo-only","message":"SET-Compose shows demo content only in demo mode (svc-demo=true in the page URL, window._svc_config = {isDemoMode: true} or _svc.demo('SET-Compose')); widget hidden"})",
        R"(svc:rendered {"widgetId":"SIMILAR","touchpoint":"product","sku":"A","products":["P-1","P-2"]})",
        R"(svc:hidden {"widgetId":"SIMILAR","touchpoint":"product","sku":"B\"","reason":"empty","message":"svc has no content for this widget"})",
        R"(svc:hidden {"widgetId":"SIMILAR","touchpoint":"product","sku":"C","reason":"failed","message":"content request timed out after 3000 ms; widgets hidden"})",
    });
    std::vector<NodeId> on;
    for (const auto& [node, type, detail] : dom.dispatched) on.push_back(node);
    CHECK(on == std::vector<NodeId>{invalid, compose, shown, empty, failed});
    // Each is dispatched before the handle is released (the element is taken while it is known).
    CHECK(dom.nodes[failed].releases == 1);
}

TEST_CASE("SdkController: svc:add-to-cart says resolved, rejected with the shop's reason, or unknown") {
    RenderedSet set(true);
    set.dom.dispatched.clear();
    set.controller.handleAction(set.key, "cart", 0, 0, true);
    set.controller.handleAction(set.key, "alt", 1, 1, true);
    set.controller.handleAction(set.key, "cart", 1, 0, true);
    REQUIRE(set.dom.cartCalls.size() == 2);
    set.controller.cartResult(set.dom.cartCalls[0].first, svc::CartOutcome::Added);
    set.controller.cartResult(set.dom.cartCalls[1].first, svc::CartOutcome::Failed, "out of stock");
    set.controller.handleAction(set.key, "cart", 0, 0, true);
    set.controller.cartResult(set.dom.cartCalls[2].first, svc::CartOutcome::NotAPromise);
    CHECK(eventsOf(set.dom) == std::vector<std::string>{
        R"(svc:add-to-cart {"widgetId":"SET","touchpoint":"product","sku":"A","product":"P-1","status":"resolved"})",
        R"(svc:add-to-cart {"widgetId":"SET","touchpoint":"product","sku":"A","product":"Q-1","status":"rejected","reason":"out of stock"})",
        R"(svc:add-to-cart {"widgetId":"SET","touchpoint":"product","sku":"A","product":"P-1","status":"unknown","reason":"addToCart returned no promise"})",
    });
}

TEST_CASE("SdkController consent: nothing is recorded until granted; widgets render all the same") {
    for (svc::Consent before : {svc::Consent::Pending, svc::Consent::Denied}) {
        CAPTURE(svc::consentName(before));
        RenderedSet set(true);
        CHECK(set.controller.setConsent(before, svc::VisitorIds{}).empty());
        CHECK(set.dom.state(set.node) == std::optional<std::string>("rendered"));
        CHECK(set.controller.widgetVisibility(set.key, 1.0, 1.0));
        set.controller.handleAction(set.key, "open", 0, 0, false);
        set.controller.handleAction(set.key, "cart", 0, 0, true);
        set.controller.cartResult(set.dom.cartCalls[0].first, svc::CartOutcome::Added);
        CHECK(set.controller.queuedEventCount() == 0);
        CHECK(set.controller.drainEvents().empty());

        // Granted: from now on, with the ids the grant created.
        CHECK(set.controller.setConsent(svc::Consent::Granted, visitorIds()).empty());
        set.controller.handleAction(set.key, "open", 1, 0, false);
        auto events = serverSees(set.controller.drainEvents());
        REQUIRE(events.size() == 1);
        CHECK(events[0].type == svc::WidgetEventType::Click);
        CHECK(events[0].cid == std::string(32, 'c'));

        // Withdrawn: what was recorded and not sent yet is dropped; nothing again, and the ids handed in are not kept.
        set.controller.handleAction(set.key, "open", 0, 0, false);
        REQUIRE(set.controller.queuedEventCount() == 1);
        set.controller.setConsent(svc::Consent::Denied, visitorIds());
        CHECK(set.controller.queuedEventCount() == 0);
        set.controller.handleAction(set.key, "open", 1, 0, false);
        CHECK(set.controller.queuedEventCount() == 0);
    }
}

TEST_CASE("SdkController consent: a purchase waits while pending, then carries the cid if granted and none if denied") {
    const std::string order = R"({"customerid":"anonymous","orderid":"O-1","products":[{"sku":"A","amount":1,"price":500}]})";
    auto cidOf = [](const std::string& body) {
        auto parsed = svc::parseEvents(body);
        REQUIRE(parsed.ok());
        return std::get<svc::PurchaseEvent>(parsed.events.events[0]).cid;
    };
    struct Case {
        const char* name;
        std::optional<svc::Consent> answer;  // none: the page is left unanswered
        std::optional<std::string> cid;
    };
    for (const Case& c : std::vector<Case>{{"granted", svc::Consent::Granted, std::string(32, 'c')},
                                            {"denied", svc::Consent::Denied, std::nullopt},
                                            {"unanswered", std::nullopt, std::nullopt}}) {
        CAPTURE(c.name);
        MemoryDom dom;
        SdkController controller(dom);
        controller.setConsent(svc::Consent::Pending, svc::VisitorIds{});
        CHECK(controller.track("purchase", order).empty());
        CHECK(controller.track("purchase", order).empty());  // still once per order
        std::vector<std::string> bodies =
            c.answer ? controller.setConsent(*c.answer, visitorIds()) : controller.drainEvents();
        REQUIRE(bodies.size() == 1);
        CHECK(cidOf(bodies[0]) == c.cid);
        CHECK(controller.drainEvents().empty());
    }
    // Denied from the start: sent at once, without a cid.
    MemoryDom dom;
    SdkController controller(dom);
    controller.setConsent(svc::Consent::Denied, svc::VisitorIds{});
    std::string body = controller.track("purchase", order);
    REQUIRE_FALSE(body.empty());
    CHECK(cidOf(body) == std::nullopt);
}
