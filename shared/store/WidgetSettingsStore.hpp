#pragma once
// A tenant's widget presentation (WidgetSettings): the language rule, country, CSS and text
// bundles (docs/adr/0058). The CLI writes while a server reads.
//
// Contract (tests/store/WidgetSettingsStoreContractTest.cpp):
// - a tenant that never set anything loads the defaults (html-lang, English, no country, no CSS, no bundles).
// - every write is checked first and refused whole (InvalidArgument naming the field), leaving
//   the stored settings as they were; accepted CSS and texts are read back byte for byte.
// - one tenant's settings never show in another's.
// - removing a bundle that is not there is NotFound naming the language.
#include <cstdint>
#include <optional>
#include <string>

#include "core/Result.hpp"
#include "tenant/WidgetSettings.hpp"

namespace svc {

struct WidgetSettingsChange {
    std::optional<LanguageSource> languageSource;
    std::optional<std::string> defaultLanguage;
    std::optional<std::string> country;  // "" clears it
    std::optional<std::string> css;
    std::optional<Consent> consent;
};

class WidgetSettingsStore {
public:
    virtual ~WidgetSettingsStore() = default;

    virtual Result<WidgetSettings> load(int64_t tenantId) = 0;
    virtual Status change(int64_t tenantId, const WidgetSettingsChange& change, int64_t now) = 0;
    // Replaces the tenant's bundle of `language` (a primary subtag such as "de") by `json`.
    virtual Status setTexts(int64_t tenantId, const std::string& language, const std::string& json, int64_t now) = 0;
    virtual Status removeTexts(int64_t tenantId, const std::string& language) = 0;
};

}  // namespace svc
