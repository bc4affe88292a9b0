// The one EMSCRIPTEN_BINDINGS block. Raw methods carry a `_` prefix; the JS layer
// (js/api.js) wraps them into the public `_svc` API.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include "BrowserDom.hpp"
#include "sdk/SdkController.hpp"

namespace {

class Sdk {
public:
    Sdk() : controller_(dom_) {}

    emscripten::val scan() { return toJs(controller_.scan()); }
    emscripten::val updateWidgetSku(const std::string& widgetType, const std::string& sku) {
        return toJs(controller_.updateWidgetSku(widgetType, sku));
    }
    void applyContent(int batchId, const std::string& response) { controller_.applyContent(batchId, response); }
    void failBatch(int batchId, const std::string& cause) { controller_.failBatch(batchId, cause); }

private:
    static emscripten::val toJs(const svc::ContentBatch& batch) {
        emscripten::val result = emscripten::val::object();
        result.set("id", batch.id);
        result.set("query", batch.query);
        return result;
    }

    svc::BrowserDom dom_;
    svc::SdkController controller_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(svc_sdk) {
    emscripten::class_<Sdk>("Sdk")
        .constructor<>()
        .function("_scan", &Sdk::scan)
        .function("_updateWidgetSku", &Sdk::updateWidgetSku)
        .function("_applyContent", &Sdk::applyContent)
        .function("_failBatch", &Sdk::failBatch);
}
