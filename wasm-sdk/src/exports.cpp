// The functions js/api.js calls (exported as _svc_*). String arguments are made by the
// JS side with allocateUTF8 and freed here. Plain C exports instead of embind: see
// docs/adr/0018.
#include <emscripten/emscripten.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "BrowserDom.hpp"
#include "HostImports.hpp"
#include "WebStorage.hpp"
#include "sdk/Consent.hpp"
#include "sdk/SdkController.hpp"
#include "sdk/VisitorIdentity.hpp"

namespace {

svc::SdkController& controller() {
    static svc::BrowserDom dom;
    static svc::SdkController instance(dom);
    return instance;
}

svc::VisitorIds& visitor() {
    static svc::VisitorIds ids;
    return ids;
}

svc::WebStorage& storage() {
    static svc::WebStorage instance;
    return instance;
}

// Takes ownership of a string made by allocateUTF8 (nullptr when allocation failed).
std::string take(char* text) {
    std::string result = text ? text : "";
    std::free(text);
    return result;
}

void fetchBatch(const svc::ContentBatch& batch) {
    if (batch.id != 0) svc_host_fetch(batch.id, batch.query.c_str());
}

// Consent decides whether the visitor's ids exist at all (docs/adr/0083): only granted reads and
// writes the cookie and storage; denied also removes what svc wrote before.
void applyConsent(svc::Consent consent) {
    if (consent == svc::Consent::Granted) {
        if (controller().consent() != svc::Consent::Granted || visitor().cid.empty()) {
            visitor() = svc::VisitorIdentity::establish(storage());
        }
    } else {
        if (consent == svc::Consent::Denied) svc::VisitorIdentity::forget(storage());
        visitor() = {};
    }
    for (const auto& body : controller().setConsent(consent, visitor())) svc_host_send_events(body.c_str());
}

std::optional<svc::Consent> consentArgument(const std::string& text, const std::string& where, const char* otherwise) {
    auto consent = svc::parseConsent(text);
    if (!consent) controller().warnOnce(where + ": '" + text + "' is not 'pending', 'granted' or 'denied'; " + otherwise);
    return consent;
}

}  // namespace

extern "C" {

// Once per page, before the first scan: the consent the page starts with (window._svc_config.consent,
// else the tenant's default), the visitor's ids when it is granted (cookie refreshed), and demo
// mode (js/api.js reads svc-demo=true and window._svc_config) with the SDK's asset URL.
EMSCRIPTEN_KEEPALIVE void svc_start(int demoMode, char* assetBase, char* consent) {
    std::string state = take(consent);
    applyConsent(consentArgument(state, "_svc_config.consent", "treated as 'pending'").value_or(svc::Consent::Pending));
    controller().setDemoMode(demoMode != 0, take(assetBase));
}

// _svc.consent(state): the shop's banner answered (or the visitor changed their mind).
EMSCRIPTEN_KEEPALIVE void svc_consent(char* state) {
    if (auto consent = consentArgument(take(state), "_svc.consent", "consent unchanged")) applyConsent(*consent);
}

// 1 when the widget needs no more observing.
EMSCRIPTEN_KEEPALIVE int svc_visibility(int widgetKey, double visibleFractionOfWidget, double fractionOfViewportCovered) {
    return controller().widgetVisibility(widgetKey, visibleFractionOfWidget, fractionOfViewportCovered) ? 1 : 0;
}

// The page is being hidden: every queued event goes out now, one beacon per body.
EMSCRIPTEN_KEEPALIVE void svc_flush_events() {
    for (const auto& body : controller().drainEvents()) svc_host_send_events(body.c_str());
}

EMSCRIPTEN_KEEPALIVE void svc_scan() { fetchBatch(controller().scan()); }

// The page's widgets changed (MutationObserver in js/api.js).
EMSCRIPTEN_KEEPALIVE void svc_refresh() { fetchBatch(controller().refresh()); }

EMSCRIPTEN_KEEPALIVE void svc_demo(char* widgetType) { fetchBatch(controller().demo(take(widgetType))); }

EMSCRIPTEN_KEEPALIVE void svc_update_widget_sku(char* widgetType, char* sku) {
    std::string type = take(widgetType);
    fetchBatch(controller().updateWidgetSku(type, take(sku)));
}

EMSCRIPTEN_KEEPALIVE void svc_apply_content(int batchId, char* response) {
    controller().applyContent(batchId, take(response));
}

EMSCRIPTEN_KEEPALIVE void svc_fail_batch(int batchId, char* cause) { controller().failBatch(batchId, take(cause)); }

// 1 when the click was handled here and the browser's default must not happen.
EMSCRIPTEN_KEEPALIVE int svc_action(int widgetKey, char* action, int position, int choice, int plainClick) {
    return controller().handleAction(widgetKey, take(action), position, choice, plainClick != 0) ==
           svc::ActionOutcome::Handled;
}

// outcome: 1 added, 0 failed (reason: the rejection's message, or nullptr), 2 the shop's addToCart
// returned no promise (svc_shop_add_to_cart).
EMSCRIPTEN_KEEPALIVE void svc_cart_result(int requestId, int outcome, char* reason) {
    controller().cartResult(requestId,
                            outcome == 1   ? svc::CartOutcome::Added
                            : outcome == 2 ? svc::CartOutcome::NotAPromise
                                           : svc::CartOutcome::Failed,
                            take(reason));
}

EMSCRIPTEN_KEEPALIVE void svc_shop_plugin_ready() { controller().shopPluginReady(); }

EMSCRIPTEN_KEEPALIVE void svc_svclytics(char* eventName, char* payloadJson) {
    std::string name = take(eventName);
    std::string body = controller().track(name, take(payloadJson));
    if (!body.empty()) svc_host_send_events(body.c_str());
}

}  // extern "C"
