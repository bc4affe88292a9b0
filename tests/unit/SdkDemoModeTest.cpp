// Demo mode (issue 6, docs/adr/0022): SET-Compose widgets show the SDK's built-in demo
// look without any request, only in demo mode or after _svc.demo('SET-Compose').
#include <doctest/doctest.h>

#include "SdkMemoryDom.hpp"
#include "TestSupport.hpp"

#include "sdk/DemoCatalog.hpp"
#include "sdk/SdkController.hpp"

using sdk_test::SdkMemoryDom;
using svc::ContentBatch;
using svc::NodeId;
using svc::SdkController;

namespace {

size_t count(const std::string& text, const std::string& part) {
    size_t found = 0;
    for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++found;
    return found;
}

}  // namespace

TEST_CASE("DemoCatalog::look: a complete look of demo products, with alternatives and images from the SDK's host") {
    svc::WidgetContent look = svc::DemoCatalog::look("https://sdk.example/sdk");
    REQUIRE(look.items.size() == 4);
    CHECK(look.setId == "svc-demo-look");
    size_t withRetail = 0;
    for (const auto& item : look.items) {
        CHECK(item.alternatives.size() >= 1);
        std::vector<svc::ContentItem> all{item};
        all.insert(all.end(), item.alternatives.begin(), item.alternatives.end());
        for (const auto& product : all) {
            // Never a SKU a feed could have: nothing of the demo reaches a cart or an event.
            CHECK(product.sku.rfind("svc-demo-", 0) == 0);
            CHECK(product.image.rfind("https://sdk.example/sdk/demo-", 0) == 0);
            CHECK(product.url == "#" + product.sku);
            CHECK(product.price > 0);
            CHECK_FALSE(product.name.empty());
            if (product.retailPrice) {
                CHECK(*product.retailPrice > product.price);
                ++withRetail;
            }
        }
    }
    CHECK(withRetail >= 1);  // the crossed-out price is part of the preview
}

TEST_CASE("SdkController: outside demo mode SET-Compose is hidden with one warning and never requested") {
    SdkMemoryDom dom;
    NodeId compose = dom.addWidget("SET-Compose", "product");
    NodeId secondCompose = dom.addWidget("SET-Compose", "content");
    NodeId similar = dom.addWidget("SIMILAR", "product", "A-1");
    SdkController controller(dom);

    ContentBatch batch = controller.scan();
    CHECK(batch.query == "w=SIMILAR&t=product&s=A-1&i=");  // the other widgets work as always
    for (NodeId node : {compose, secondCompose}) {
        CHECK(dom.state(node) == std::optional<std::string>("demo-only"));
        CHECK(dom.nodes[node].hidden);
        CHECK(dom.nodes[node].renders == 0);
    }
    REQUIRE(dom.warnings.size() == 1);
    CHECK(dom.warnings[0].find("SET-Compose shows demo content only in demo mode") != std::string::npos);
    CHECK(dom.state(similar) == std::optional<std::string>("loading"));
}

TEST_CASE("SdkController: in demo mode SET-Compose shows the demo look at once, with no cart buttons and no tracking") {
    SdkMemoryDom dom;
    dom.canAddToCart = true;
    NodeId compose = dom.addWidget("SET-Compose", "product");
    NodeId similar = dom.addWidget("SIMILAR", "product", "A-1");
    SdkController controller(dom);
    controller.setDemoMode(true, "http://svc.test/sdk");
    controller.setVisitor({std::string(32, 'a'), std::string(32, 'b'), "", true});

    ContentBatch batch = controller.scan();
    // Only the real widget needs the backend: the demo works for a tenant without products.
    CHECK(batch.query == "w=SIMILAR&t=product&s=A-1&i=");
    CHECK(dom.state(compose) == std::optional<std::string>("rendered"));
    CHECK_FALSE(dom.nodes[compose].hidden);
    const std::string& html = dom.nodes[compose].content;
    CHECK(count(html, "class=\"svc-card\"") == 4);
    CHECK(html.find("Linen shirt") != std::string::npos);
    CHECK(html.find("src=\"http://svc.test/sdk/demo-shirt.svg\"") != std::string::npos);
    CHECK(html.find("data-svc-action=\"alt\"") != std::string::npos);  // alternatives are previewed
    CHECK(html.find("data-svc-action=\"cart\"") == std::string::npos);  // demo SKUs are in no cart
    CHECK(dom.warnings.empty());
    CHECK(dom.observed.empty());  // no view events for the demo

    // A click on a demo product is no interaction to attribute.
    int key = std::stoi(*dom.get(compose, "data-svc-key"));
    CHECK(controller.handleAction(key, "open", 0, 0, true) == svc::ActionOutcome::Ignored);
    CHECK(controller.queuedEventCount() == 0);

    // A further scan renders nothing twice.
    CHECK(controller.scan().id == 0);
    CHECK(dom.nodes[compose].renders == 1);
}

TEST_CASE("SdkController::demo: _svc.demo('SET-Compose') shows hidden and later SET-Compose widgets; other ids warn") {
    SdkMemoryDom dom;
    NodeId compose = dom.addWidget("SET-Compose", "product");
    SdkController controller(dom);
    controller.setDemoMode(false, "/sdk");
    controller.scan();
    REQUIRE(dom.state(compose) == std::optional<std::string>("demo-only"));

    CHECK(controller.demo("SIMILAR").id == 0);
    CHECK(dom.warnings.back() == "[svc] demo: widgetId 'SIMILAR' has no demo; only SET-Compose supports demo mode");
    CHECK(dom.state(compose) == std::optional<std::string>("demo-only"));

    CHECK(controller.demo("SET-Compose").id == 0);
    CHECK(dom.state(compose) == std::optional<std::string>("rendered"));
    CHECK_FALSE(dom.nodes[compose].hidden);
    CHECK(dom.nodes[compose].content.find("src=\"/sdk/demo-") != std::string::npos);

    // Calling it again renders nothing twice; a widget added later is shown too.
    controller.demo("SET-Compose");
    CHECK(dom.nodes[compose].renders == 1);
    NodeId later = dom.addWidget("SET-Compose", "content");
    controller.refresh();
    CHECK(dom.state(later) == std::optional<std::string>("rendered"));
    CHECK(dom.warnings.size() == 2);  // the SIMILAR one and the first hidden widget's
}
