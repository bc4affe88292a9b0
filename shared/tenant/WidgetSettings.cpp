#include "tenant/WidgetSettings.hpp"

#include "text/Utf8.hpp"
#include "widget/WidgetRenderer.hpp"

namespace svc {

bool WidgetSettings::hasTexts(const std::string& language) const {
    return textBundles.count(language) > 0 || WidgetTexts::builtIn(language).has_value();
}

WidgetTexts WidgetSettings::textsFor(const std::string& language) const {
    WidgetTexts texts = WidgetTexts::builtIn(language).value_or(WidgetTexts());
    auto bundle = textBundles.find(language);
    // Bundles are validated before they are stored; a bundle that fails anyway leaves the defaults.
    if (bundle != textBundles.end()) (void)texts.applyJson(bundle->second);
    return texts;
}

bool WidgetSettings::requiresLowestPrice30Days() const {
    static constexpr std::string_view kEuMemberStates[] = {"AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES",
                                                           "FI", "FR", "GR", "HR", "HU", "IE", "IT", "LT", "LU",
                                                           "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK"};
    for (std::string_view member : kEuMemberStates) {
        if (country == member) return true;
    }
    return false;
}

Result<std::string> WidgetSettings::validCountry(std::string_view country, const std::string& field) {
    std::string upper;
    for (char c : country) {
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
        if (c < 'A' || c > 'Z') break;
        upper += c;
    }
    if (upper.size() != 2 || country.size() != 2) {
        return Error::invalidArgument(field + ": '" + std::string(country) + "' is not a two-letter ISO 3166 country code, e.g. DE");
    }
    return upper;
}

Status WidgetSettings::validCss(std::string_view css, const std::string& field) {
    if (css.size() > kMaxCssBytes) {
        return Error::invalidArgument(field + ": larger than " + std::to_string(kMaxCssBytes) + " bytes");
    }
    if (size_t at = findInvalidUtf8(css); at != std::string::npos) {
        return Error::invalidArgument(field + ": not valid UTF-8 at byte " + std::to_string(at));
    }
    // The stylesheet is served as text/css: markup in it would be harmless there, but a
    // "</style" shows someone meant to paste it into a page; refuse it to keep the file pure CSS.
    // ("<" alone is CSS: @media (width < 600px).)
    for (size_t at = css.find('<'); at != std::string_view::npos; at = css.find('<', at + 1)) {
        char after = at + 1 < css.size() ? css[at + 1] : ' ';
        if (after == '/' || after == '!' || after == '?' || (after >= 'a' && after <= 'z') || (after >= 'A' && after <= 'Z')) {
            return Error::invalidArgument(field + ": contains '<' followed by '" + after + "'; give plain CSS, not HTML");
        }
    }
    // Saved only when nothing would be left out when served: the operator learns now, with the
    // place, what a shop would never see.
    css::ScopedCss scoped = scopedCss(css);
    if (!scoped.problems.empty()) {
        std::string more = scoped.problems.size() > 1 ? " (and " + std::to_string(scoped.problems.size() - 1) + " more)" : "";
        return Error::invalidArgument(field + ": " + scoped.problems.front().describe() + more);
    }
    return Status::success();
}

css::ScopedCss WidgetSettings::scopedCss(std::string_view css) {
    return css::CssScoper(WidgetRenderer::kRootClass, kKeyframesPrefix).scope(css);
}

}  // namespace svc
