// Page changes (issue 6, docs/adr/0023): SdkController::refresh, called when the page's
// widgets change, claims new widgets and re-renders widgets whose attributes changed,
// and never renders a widget twice for one change, whoever announced it.
#include <doctest/doctest.h>

#include "SdkMemoryDom.hpp"
#include "TestSupport.hpp"

#include "sdk/SdkController.hpp"

using sdk_test::contentResponse;
using sdk_test::SdkMemoryDom;
using svc::ContentBatch;
using svc::NodeId;
using svc::SdkController;

namespace {

bool shows(const SdkMemoryDom& dom, NodeId node, const std::string& sku) {
    return dom.nodes.at(node).content.find("data-svc-sku=\"" + sku + "\"") != std::string::npos;
}

}  // namespace

TEST_CASE("SdkController::refresh: nothing changed, nothing requested") {
    SdkMemoryDom dom;
    NodeId similar = dom.addWidget("SIMILAR", "product", "A");
    SdkController controller(dom);
    ContentBatch first = controller.scan();
    controller.applyContent(first.id, contentResponse({"S"}));
    REQUIRE(dom.state(similar) == std::optional<std::string>("rendered"));

    CHECK(controller.refresh().id == 0);
    CHECK(dom.nodes[similar].renders == 1);
}

TEST_CASE("SdkController::refresh: a changed data-sku re-renders that widget only, once") {
    SdkMemoryDom dom;
    NodeId similar = dom.addWidget("SIMILAR", "product", "A");
    NodeId set = dom.addWidget("SET", "product", "A");
    SdkController controller(dom);
    ContentBatch first = controller.scan();
    controller.applyContent(first.id, contentResponse({"S", "T"}));
    REQUIRE(controller.renderedWidgetCount() == 2);

    dom.setAttribute(similar, "data-sku", "B");  // the shop's single-page app changed product
    ContentBatch changed = controller.refresh();
    CHECK(changed.query == "w=SIMILAR&t=product&s=B&i=");
    CHECK(dom.state(similar) == std::optional<std::string>("loading"));
    CHECK(controller.refresh().id == 0);  // a second mutation report asks nothing more
    controller.applyContent(changed.id, contentResponse({"U"}));
    CHECK(shows(dom, similar, "U-0"));
    CHECK(dom.nodes[similar].renders == 2);
    CHECK(dom.nodes[set].renders == 1);
    CHECK(controller.renderedWidgetCount() == 2);
}

TEST_CASE("SdkController::refresh: after updateWidgetSku (which sets data-sku itself) there is nothing left to do") {
    SdkMemoryDom dom;
    NodeId set = dom.addWidget("SET", "product", "A");
    SdkController controller(dom);
    ContentBatch first = controller.scan();
    controller.applyContent(first.id, contentResponse({"S"}));

    // The shop changes the attribute and also calls the API, as the guide allows.
    dom.setAttribute(set, "data-sku", "A-red");
    ContentBatch updated = controller.updateWidgetSku("SET", "A-red");
    CHECK(updated.query == "w=SET&t=product&s=A-red&i=");
    CHECK(controller.refresh().id == 0);  // the observer's report comes after: no second request
    controller.applyContent(updated.id, contentResponse({"R"}));
    CHECK(dom.nodes[set].renders == 2);
    CHECK(shows(dom, set, "R-0"));
}

TEST_CASE("SdkController::refresh: a change while loading drops the old answer") {
    SdkMemoryDom dom;
    NodeId similar = dom.addWidget("SIMILAR", "product", "A");
    SdkController controller(dom);
    ContentBatch old = controller.scan();
    dom.setAttribute(similar, "data-sku", "B");
    ContentBatch fresh = controller.refresh();
    REQUIRE(fresh.id != 0);
    controller.applyContent(fresh.id, contentResponse({"NEW"}));
    controller.applyContent(old.id, contentResponse({"OLD"}));  // the slower, older answer
    CHECK(shows(dom, similar, "NEW-0"));
    CHECK_FALSE(shows(dom, similar, "OLD-0"));
    CHECK(dom.nodes[similar].renders == 1);
}

TEST_CASE("SdkController::refresh: new widgets are claimed once; a hidden widget with a new SKU is shown again") {
    SdkMemoryDom dom;
    NodeId similar = dom.addWidget("SIMILAR", "cart-layer", "A");
    SdkController controller(dom);
    ContentBatch first = controller.scan();
    controller.applyContent(first.id, R"({"currency":"EUR","locale":"de-DE","widgets":[{"items":[]}]})");
    REQUIRE(dom.state(similar) == std::optional<std::string>("empty"));
    REQUIRE(dom.nodes[similar].hidden);

    NodeId added = dom.addWidget("SET", "cart", "C");
    dom.setAttribute(similar, "data-sku", "B");
    ContentBatch batch = controller.refresh();
    CHECK(batch.query == "w=SIMILAR&t=cart-layer&s=B&i=&w=SET&t=cart&s=C&i=");
    CHECK(controller.refresh().id == 0);
    controller.applyContent(batch.id, contentResponse({"X", "Y"}));
    CHECK_FALSE(dom.nodes[similar].hidden);
    CHECK(shows(dom, similar, "X-0"));
    CHECK(shows(dom, added, "Y-0"));
}

TEST_CASE("SdkController::refresh: a widget the shop fixed is claimed again; one that left the page is forgotten") {
    SdkMemoryDom dom;
    NodeId broken = dom.addWidget("SIMILAR", "product");  // no data-sku yet
    NodeId rendered = dom.addWidget("SET", "product", "A");
    SdkController controller(dom);
    ContentBatch first = controller.scan();
    REQUIRE(dom.state(broken) == std::optional<std::string>("invalid"));
    REQUIRE(dom.warnings.size() == 1);
    controller.applyContent(first.id, contentResponse({"S"}));
    REQUIRE(controller.renderedWidgetCount() == 1);

    dom.setAttribute(broken, "data-sku", "B");
    dom.nodes[rendered].inPage = false;  // the app replaced that part of the page
    ContentBatch batch = controller.refresh();
    CHECK(batch.query == "w=SIMILAR&t=product&s=B&i=");
    CHECK(controller.renderedWidgetCount() == 0);
    CHECK(dom.warnings.size() == 1);
}

TEST_CASE("SdkController: widgets the snippet gave up on (failed, never claimed) stay given up, also when they change") {
    SdkMemoryDom dom;
    // svc did not load within the snippet's bound: it marked the widget failed and hid its container.
    NodeId givenUp = dom.add({{"data-svc-widget-id", "SIMILAR"}, {"data-touchpoint", "product"}, {"data-sku", "A"},
                              {"data-svc-state", "failed"}});
    NodeId fresh = dom.addWidget("SIMILAR", "product", "A");
    SdkController controller(dom);
    ContentBatch first = controller.scan();
    CHECK(first.query == "w=SIMILAR&t=product&s=A&i=");  // the fresh widget only
    controller.applyContent(first.id, contentResponse({"S"}));
    CHECK(dom.state(fresh) == std::optional<std::string>("rendered"));

    dom.setAttribute(givenUp, "data-sku", "B");
    CHECK(controller.refresh().id == 0);
    CHECK(dom.state(givenUp) == std::optional<std::string>("failed"));
    CHECK(dom.nodes[givenUp].renders == 0);
}
