#pragma once
// The checks every WidgetSettingsStore backend runs before it writes anything, so that a
// refused change is refused whole, with the same message on every backend (the field named).
#include <optional>
#include <string>

#include "store/WidgetSettingsStore.hpp"

namespace svc {

// A change whose values passed the checks, in the form they are stored.
struct CheckedWidgetSettingsChange {
    std::optional<std::string> languageSource;
    std::optional<std::string> defaultLanguage;
    std::optional<std::string> country;
    std::optional<std::string> css;
    std::optional<std::string> consent;
};

class WidgetSettingsChecks {
public:
    static Result<CheckedWidgetSettingsChange> change(const WidgetSettingsChange& change);
    // A bundle of `language` (a lower-case primary subtag) whose JSON WidgetTexts accepts.
    static Status texts(const std::string& language, const std::string& json);
};

}  // namespace svc
