#include "tenant/WidgetSettings.hpp"

#include "text/Utf8.hpp"

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
    if (css.find("</") != std::string_view::npos || css.find('<') != std::string_view::npos) {
        return Error::invalidArgument(field + ": contains '<'; give plain CSS, not HTML");
    }
    if (css.find("@import") != std::string_view::npos) {
        return Error::invalidArgument(field + ": @import is not allowed (the stylesheet must load in one request)");
    }
    return Status::success();
}

}  // namespace svc
