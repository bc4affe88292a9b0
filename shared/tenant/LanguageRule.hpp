#pragma once
// How a tenant's widgets pick their language on a page: the operator's rule (spec point 8:
// the language is never an SDK option). The SDK reports what the page says (its
// <html lang> and the first segment of its path) with the content request; the server
// applies the rule and answers with that language's texts.
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/Result.hpp"

namespace svc {

enum class LanguageSource {
    HtmlLang,     // <html lang="de-AT"> -> de
    PathSegment,  // https://shop.example/de/... -> de
    Fixed,        // always the default language
};

struct LanguageRule {
    LanguageSource source = LanguageSource::HtmlLang;
    // The fixed language, and the language when the page names none that has texts.
    std::string defaultLanguage = "en";

    // "html-lang", "path-segment" or "fixed"; errors name `field`.
    static Result<LanguageSource> parseSource(std::string_view text, const std::string& field);
    static const char* sourceName(LanguageSource source);
    // A language tag reduced to its lower-case primary subtag ("de-AT" -> "de"); nullopt when
    // it is not one (2 or 3 ASCII letters before an optional "-" or "_").
    static std::optional<std::string> primaryLanguage(std::string_view tag);

    // The language to show: the page's, when the rule reads one and `hasTexts` knows it,
    // else the default language.
    std::string resolve(std::string_view htmlLang, std::string_view pathSegment,
                        const std::function<bool(const std::string&)>& hasTexts) const;

    bool operator==(const LanguageRule&) const = default;
};

}  // namespace svc
