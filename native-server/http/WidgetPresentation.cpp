#include "http/WidgetPresentation.hpp"
#include "log/Log.hpp"

#include <iostream>
#include <vector>

namespace svc {

WidgetPresentation::WidgetPresentation(WidgetSettingsStore& settings, std::chrono::milliseconds ttl)
    : store_(settings), ttl_(ttl) {}

Result<std::shared_ptr<const WidgetSettings>> WidgetPresentation::settingsOf(int64_t tenantId) {
    auto now = std::chrono::steady_clock::now();
    {
        std::lock_guard lock(mutex_);
        auto found = cache_.find(tenantId);
        if (found != cache_.end() && found->second.expires > now) return found->second.settings;
    }
    auto loaded = store_.load(tenantId);
    if (!loaded) {
        // The database is away for a moment: the settings last read keep the widgets as they were.
        std::lock_guard lock(mutex_);
        auto found = cache_.find(tenantId);
        if (loaded.error().code == ErrorCode::Unavailable && found != cache_.end()) return found->second.settings;
        return loaded.error();
    }
    auto settings = std::make_shared<const WidgetSettings>(std::move(*loaded));
    std::lock_guard lock(mutex_);
    cache_[tenantId] = {settings, now + ttl_};
    return settings;
}

void WidgetPresentation::forget(int64_t tenantId) {
    std::lock_guard lock(mutex_);
    cache_.erase(tenantId);
}

Status WidgetPresentation::decorate(const Tenant& tenant, const PageHints& hints, ContentResponse& content) {
    auto settings = settingsOf(tenant.id);
    if (!settings) return settings.error();
    const WidgetSettings& presentation = **settings;
    content.language = presentation.languageRule.resolve(
        hints.htmlLang, hints.pathSegment, [&](const std::string& language) { return presentation.hasTexts(language); });
    content.texts = presentation.textsFor(content.language);
    // The items carry their lowest 30-day prices from the snapshot (contentItemOf, ADR 0080);
    // the tenant's country decides whether they are shown.
    if (presentation.requiresLowestPrice30Days()) return Status::success();
    for (auto& widget : content.widgets) {
        for (auto& item : widget.items) {
            item.lowestPrice30Days.reset();
            for (auto& alternative : item.alternatives) alternative.lowestPrice30Days.reset();
        }
    }
    return Status::success();
}

Result<std::string> WidgetPresentation::stylesheet(const Tenant& tenant, const std::string& baseCss) {
    auto settings = settingsOf(tenant.id);
    if (!settings) return settings.error();
    if ((*settings)->css.empty()) return baseCss;
    std::string scoped = scopedCssOf(tenant, (*settings)->css);
    if (scoped.empty()) return baseCss;
    return baseCss + "\n/* The operator's CSS for this shop, scoped to its widgets (docs/adr/0058) */\n" + scoped;
}

std::string WidgetPresentation::scopedCssOf(const Tenant& tenant, const std::string& css) {
    {
        std::lock_guard lock(mutex_);
        auto found = scoped_.find(tenant.id);
        if (found != scoped_.end() && found->second.source == css) return found->second.scoped;
    }
    // Never the raw text: CSS saved before the checks existed is served with what passes, and
    // what is left out is logged once per change of the CSS, not once per request.
    css::ScopedCss result = WidgetSettings::scopedCss(css);
    if (!result.problems.empty()) {
        Log::warn("widgets.css leaves out " + std::to_string(result.problems.size()) +
                      " part(s) of the operator's CSS that the checks of docs/adr/0058 refuse; save it again in the console",
                  tenant.apiId);
        for (size_t i = 0; i < result.problems.size() && i < 3; ++i) Log::warn("css: " + result.problems[i].describe(), tenant.apiId);
    }
    std::lock_guard lock(mutex_);
    scoped_[tenant.id] = {css, result.css};
    return result.css;
}

}  // namespace svc
