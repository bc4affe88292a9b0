#include "widget/WidgetTexts.hpp"

#include "text/JsonReader.hpp"
#include "text/JsonWriter.hpp"
#include "text/Utf8.hpp"

namespace svc {
namespace {

struct KeyInfo {
    const char* name;
    const char* placeholders;  // the ones this key may use, e.g. "{name}"
    const char* english;
    const char* german;
};

// One row per TextKey, in its order.
constexpr KeyInfo kKeys[kTextKeyCount] = {
    {"titleSimilar", "", "Similar products", "Ähnliche Produkte"},
    {"titleSet", "", "Complete the look", "Komplettiere den Look"},
    {"titleSetCustom", "", "Shop the look", "Shop the Look"},
    {"titleSetCompose", "", "Complete the look", "Komplettiere den Look"},
    {"addToCart", "", "Add to cart", "In den Warenkorb"},
    {"addedToCart", "", "Added to cart", "Zum Warenkorb hinzugefügt"},
    {"notAddedToCart", "", "Could not add to cart. Please try again.",
     "Konnte nicht in den Warenkorb gelegt werden. Bitte versuche es erneut."},
    {"alternativesFor", "{name}", "Alternatives for {name}", "Alternativen zu {name}"},
    {"lowestPrice30Days", "{price}", "Lowest price of the last 30 days: {price}", "Niedrigster Preis der letzten 30 Tage: {price}"},
    {"carousel", "", "carousel", "Karussell"},
    {"slide", "", "slide", "Folie"},
    {"slideOf", "{index}{count}", "{index} of {count}", "{index} von {count}"},
    {"previousSlides", "", "Previous products", "Vorherige Produkte"},
    {"nextSlides", "", "Next products", "Weitere Produkte"},
};

// Every "{...}" in `text` must be one of `allowed` (a concatenation like "{name}{price}").
std::optional<std::string> unknownPlaceholder(std::string_view text, std::string_view allowed) {
    for (size_t open = text.find('{'); open != std::string_view::npos; open = text.find('{', open + 1)) {
        size_t close = text.find('}', open);
        if (close == std::string_view::npos) return std::string(text.substr(open));
        std::string_view placeholder = text.substr(open, close - open + 1);
        if (allowed.find(placeholder) == std::string_view::npos) return std::string(placeholder);
    }
    return std::nullopt;
}

}  // namespace

WidgetTexts::WidgetTexts() {
    for (size_t i = 0; i < kTextKeyCount; ++i) texts_[i] = kKeys[i].english;
}

std::optional<WidgetTexts> WidgetTexts::builtIn(std::string_view language) {
    if (language == "en") return WidgetTexts();
    if (language == "de") {
        WidgetTexts texts;
        for (size_t i = 0; i < kTextKeyCount; ++i) texts.texts_[i] = kKeys[i].german;
        return texts;
    }
    return std::nullopt;
}

const char* WidgetTexts::nameOf(TextKey key) { return kKeys[static_cast<size_t>(key)].name; }

std::optional<TextKey> WidgetTexts::keyNamed(std::string_view name) {
    for (size_t i = 0; i < kTextKeyCount; ++i) {
        if (name == kKeys[i].name) return static_cast<TextKey>(i);
    }
    return std::nullopt;
}

std::string WidgetTexts::format(TextKey key, std::string_view name, std::string_view price, std::string_view index,
                                std::string_view count) const {
    // One pass: a value that itself contains "{price}" (a product name) stays as it is.
    const std::string& text = get(key);
    std::string out;
    for (size_t at = 0; at < text.size();) {
        std::string_view rest = std::string_view(text).substr(at);
        std::string_view value;
        size_t length = 0;
        for (auto [placeholder, replacement] : {std::pair<std::string_view, std::string_view>{"{name}", name},
                                                {"{price}", price}, {"{index}", index}, {"{count}", count}}) {
            if (rest.substr(0, placeholder.size()) == placeholder) {
                value = replacement;
                length = placeholder.size();
                break;
            }
        }
        if (length == 0) {
            out += text[at++];
            continue;
        }
        out += value;
        at += length;
    }
    return out;
}

Status WidgetTexts::applyJson(std::string_view json) {
    auto parsed = JsonReader::parse(json);
    if (!parsed) return Error::invalidArgument("texts: not valid JSON (" + parsed.error().message + ")");
    if (!parsed->isObject()) return Error::invalidArgument("texts: must be a JSON object of text key to text");
    WidgetTexts result = *this;
    for (const auto& [name, value] : parsed->members()) {
        auto key = keyNamed(name);
        if (!key) {
            std::string known;
            for (const auto& info : kKeys) known += std::string(known.empty() ? "" : ", ") + info.name;
            return Error::invalidArgument("texts." + name + ": unknown text key (known: " + known + ")");
        }
        const KeyInfo& info = kKeys[static_cast<size_t>(*key)];
        if (!value.isString()) return Error::invalidArgument("texts." + name + ": must be a string");
        const std::string& text = value.text();
        if (text.empty()) return Error::invalidArgument("texts." + name + ": must not be empty");
        if (text.size() > kMaxTextLength) {
            return Error::invalidArgument("texts." + name + ": longer than " + std::to_string(kMaxTextLength) + " bytes");
        }
        if (findInvalidUtf8(text) != std::string::npos) return Error::invalidArgument("texts." + name + ": not valid UTF-8");
        for (unsigned char c : text) {
            if (c < 0x20 || c == 0x7f) return Error::invalidArgument("texts." + name + ": contains a control character");
        }
        if (auto unknown = unknownPlaceholder(text, info.placeholders)) {
            std::string allowed = *info.placeholders ? std::string("allowed: ") + info.placeholders : "this text has none";
            return Error::invalidArgument("texts." + name + ": placeholder " + *unknown + " is not allowed (" + allowed + ")");
        }
        result.texts_[static_cast<size_t>(*key)] = text;
    }
    *this = std::move(result);
    return Status::success();
}

std::string WidgetTexts::toJson() const {
    std::string out = "{";
    for (size_t i = 0; i < kTextKeyCount; ++i) {
        if (i > 0) out += ',';
        appendJsonString(out, kKeys[i].name);
        out += ':';
        appendJsonString(out, texts_[i]);
    }
    out += '}';
    return out;
}

}  // namespace svc
