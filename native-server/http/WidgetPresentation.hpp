#pragma once
// The operator's widget presentation applied to what the SDK receives: the content answer
// gets the texts of the language the tenant's rule picks for the page, and the lowest
// 30-day prices where the tenant's country requires them; /<apiId>/widgets.css is the base
// stylesheet plus the tenant's CSS, scoped to the widgets (docs/adr/0058). Settings are kept for a short time: every content
// request needs them, and the CLI (another process) changes them rarely.
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "store/PriceHistoryStore.hpp"
#include "store/WidgetSettingsStore.hpp"
#include "tenant/Tenant.hpp"
#include "widget/WidgetContent.hpp"

namespace svc {

struct PageHints {
    std::string htmlLang;     // the page's <html lang>, as the SDK read it
    std::string pathSegment;  // the first segment of the page's path
};

class WidgetPresentation {
public:
    WidgetPresentation(WidgetSettingsStore& settings, PriceHistoryStore& prices,
                       std::chrono::milliseconds ttl = std::chrono::seconds(2));

    // Texts and, where required, lowest 30-day prices into `content`.
    Status decorate(const Tenant& tenant, const PageHints& hints, ContentResponse& content);
    // The stylesheet served at /<apiId>/widgets.css.
    Result<std::string> stylesheet(const Tenant& tenant, const std::string& baseCss);
    // Drops the cached settings of a tenant: the operator console's saves show at once.
    void forget(int64_t tenantId);
    // The tenant's settings, cached for the ttl (loader.js reads the default consent here).
    Result<std::shared_ptr<const WidgetSettings>> settingsOf(int64_t tenantId);

private:
    // The tenant's CSS as WidgetSettings::scopedCss writes it, kept until the CSS changes.
    std::string scopedCssOf(const Tenant& tenant, const std::string& css);

    WidgetSettingsStore& store_;
    PriceHistoryStore& prices_;
    std::chrono::milliseconds ttl_;
    std::mutex mutex_;
    struct Cached {
        std::shared_ptr<const WidgetSettings> settings;
        std::chrono::steady_clock::time_point expires;
    };
    std::map<int64_t, Cached> cache_;
    struct Scoped {
        std::string source;
        std::string scoped;
    };
    std::map<int64_t, Scoped> scoped_;
};

}  // namespace svc
