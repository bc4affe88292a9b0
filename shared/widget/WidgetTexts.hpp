#pragma once
// Every text a widget shows, in one language. The operator sets bundles per tenant and
// language (spec points 8 and 9: never the shop through the SDK); built-in defaults exist
// in English and German, and a tenant's bundle only needs the keys it changes.
//
// Texts are plain text: the renderer escapes them. A few carry placeholders ({name},
// {price}, {index}, {count}) that the renderer fills; each key allows only its own.
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "core/Result.hpp"

namespace svc {

enum class TextKey {
    TitleSimilar,
    TitleSet,
    TitleSetCustom,
    TitleSetCompose,
    AddToCart,
    AddedToCart,
    NotAddedToCart,
    AlternativesFor,  // "{name}"
    LowestPrice30Days,  // "{price}"
    Carousel,           // aria-roledescription of the widget
    Slide,              // aria-roledescription of a card
    SlideOf,            // "{index}", "{count}"
    PreviousSlides,     // the carousel's "previous" button
    NextSlides,         // the carousel's "next" button
};
inline constexpr size_t kTextKeyCount = static_cast<size_t>(TextKey::NextSlides) + 1;

class WidgetTexts {
public:
    // English defaults.
    WidgetTexts();
    // The built-in bundle of `language` ("en", "de"; a primary subtag), if there is one.
    static std::optional<WidgetTexts> builtIn(std::string_view language);

    const std::string& get(TextKey key) const { return texts_[static_cast<size_t>(key)]; }
    void set(TextKey key, std::string text) { texts_[static_cast<size_t>(key)] = std::move(text); }
    // `key`'s text with its placeholders replaced (values are inserted as given: escape after).
    std::string format(TextKey key, std::string_view name = {}, std::string_view price = {}, std::string_view index = {},
                       std::string_view count = {}) const;

    // The JSON name of a key ("addToCart") and back.
    static const char* nameOf(TextKey key);
    static std::optional<TextKey> keyNamed(std::string_view name);

    // Applies a bundle given as a JSON object of key name to text. Refused, with nothing
    // applied, when it is not an object, names an unknown key, or a text is not a non-empty
    // string of at most kMaxTextLength bytes of UTF-8 without control characters, or uses a
    // placeholder its key does not have; the message names the key.
    Status applyJson(std::string_view json);
    // Every text as one JSON object (what the content response carries).
    std::string toJson() const;

    bool operator==(const WidgetTexts&) const = default;

    static constexpr size_t kMaxTextLength = 200;

private:
    std::array<std::string, kTextKeyCount> texts_;
};

}  // namespace svc
