#pragma once
// How a tenant's widgets look and speak, set by the operator only (spec points 8 and 9):
// the language rule, text bundles per language, the country whose price rules apply,
// and the tenant's own CSS. The shop cannot change any of it through the SDK.
#include <map>
#include <string>
#include <string_view>

#include "core/Result.hpp"
#include "css/CssScoper.hpp"
#include "sdk/Consent.hpp"
#include "tenant/LanguageRule.hpp"
#include "widget/WidgetTexts.hpp"

namespace svc {

struct WidgetSettings {
    LanguageRule languageRule;
    // ISO 3166-1 alpha-2, upper case; "" when the operator has not set one.
    std::string country;
    // The operator's CSS as typed; /<apiId>/widgets.css appends scopedCss(css) to the base.
    std::string css;
    // The operator's bundles by language (primary subtag), as validated JSON objects.
    std::map<std::string, std::string> textBundles;
    // What the SDK assumes until the shop's page states the visitor's consent (docs/adr/0083).
    Consent consent = Consent::Granted;

    // Whether `language` has texts: the tenant's own bundle or a built-in one.
    bool hasTexts(const std::string& language) const;
    // The texts of `language`: the tenant's bundle over the built-in bundle of that language,
    // or over English when there is none.
    WidgetTexts textsFor(const std::string& language) const;

    // The EU's price indication directive (98/6/EC, art. 6a; in Germany PAngV section 11):
    // a reduction shows the lowest price of the 30 days before it. Every EU member state.
    bool requiresLowestPrice30Days() const;

    // Checks before storing; the messages name the field.
    static Result<std::string> validCountry(std::string_view country, const std::string& field);
    // Refuses CSS that scopedCss would not keep whole: "css: line 3, column 7: <reason>".
    static Status validCss(std::string_view css, const std::string& field);
    static constexpr size_t kMaxCssBytes = 64 * 1024;
    // The operator's CSS as shops get it (docs/adr/0058): every selector confined to the widget
    // root, @keyframes renamed with kKeyframesPrefix, and only what svc understands and allows;
    // the rest is left out and listed in `problems` (CSS saved before these checks).
    static css::ScopedCss scopedCss(std::string_view css);
    static constexpr const char* kKeyframesPrefix = "svc-tenant-";
};

}  // namespace svc
