#include "tenant/LanguageRule.hpp"

namespace svc {

Result<LanguageSource> LanguageRule::parseSource(std::string_view text, const std::string& field) {
    if (text == "html-lang") return LanguageSource::HtmlLang;
    if (text == "path-segment") return LanguageSource::PathSegment;
    if (text == "fixed") return LanguageSource::Fixed;
    return Error::invalidArgument(field + ": '" + std::string(text) + "' is not one of html-lang, path-segment, fixed");
}

const char* LanguageRule::sourceName(LanguageSource source) {
    switch (source) {
        case LanguageSource::HtmlLang: return "html-lang";
        case LanguageSource::PathSegment: return "path-segment";
        case LanguageSource::Fixed: return "fixed";
    }
    return "html-lang";
}

std::optional<std::string> LanguageRule::primaryLanguage(std::string_view tag) {
    size_t end = tag.find_first_of("-_");
    std::string_view primary = tag.substr(0, end);
    if (primary.size() < 2 || primary.size() > 3) return std::nullopt;
    std::string lower;
    for (char c : primary) {
        bool upper = c >= 'A' && c <= 'Z';
        if (!upper && !(c >= 'a' && c <= 'z')) return std::nullopt;
        lower += upper ? static_cast<char>(c - 'A' + 'a') : c;
    }
    return lower;
}

std::string LanguageRule::resolve(std::string_view htmlLang, std::string_view pathSegment,
                                  const std::function<bool(const std::string&)>& hasTexts) const {
    std::string_view hint;
    if (source == LanguageSource::HtmlLang) hint = htmlLang;
    if (source == LanguageSource::PathSegment) hint = pathSegment;
    if (auto language = primaryLanguage(hint); language && hasTexts(*language)) return *language;
    return defaultLanguage;
}

}  // namespace svc
