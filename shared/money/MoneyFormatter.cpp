#include "money/MoneyFormatter.hpp"

#include <string_view>

namespace svc {
namespace {

std::string currencySymbol(std::string_view code) {
    if (code == "EUR") return "\xE2\x82\xAC";  // €
    if (code == "USD") return "$";
    if (code == "PLN") return "z\xC5\x82";       // zł
    return std::string(code);
}

std::string groupThousands(uint64_t units, char separator) {
    std::string digits = std::to_string(units);
    std::string out;
    int count = 0;
    for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
        if (count > 0 && count % 3 == 0) out.insert(out.begin(), separator);
        out.insert(out.begin(), *it);
        ++count;
    }
    return out;
}

}  // namespace

MoneyFormatter::MoneyFormatter(std::string currencyCode, std::string locale)
    : currencyCode_(std::move(currencyCode)), locale_(std::move(locale)) {}

std::string MoneyFormatter::decimalAmount(int64_t cents) {
    bool negative = cents < 0;
    uint64_t magnitude = negative ? static_cast<uint64_t>(-(cents + 1)) + 1 : static_cast<uint64_t>(cents);
    std::string fraction = std::to_string(magnitude % 100);
    if (fraction.size() < 2) fraction.insert(fraction.begin(), '0');
    return (negative ? "-" : "") + std::to_string(magnitude / 100) + "." + fraction;
}

std::string MoneyFormatter::format(int64_t cents) const {
    bool negative = cents < 0;
    // Unsigned magnitude: negating INT64_MIN as a signed value is undefined.
    uint64_t magnitude = negative ? static_cast<uint64_t>(-(cents + 1)) + 1 : static_cast<uint64_t>(cents);
    uint64_t units = magnitude / 100;
    uint64_t fractionValue = magnitude % 100;
    std::string fraction = (fractionValue < 10 ? "0" : "") + std::to_string(fractionValue);
    std::string sign = negative ? "-" : "";
    std::string language = locale_.substr(0, 2);
    if (language == "de" || language == "pl" || language == "fr" || language == "nl") {
        // 1.234,56 € (German, Polish, French and Dutch shops put the symbol last)
        return sign + groupThousands(units, '.') + "," + fraction + "\xC2\xA0" + currencySymbol(currencyCode_);
    }
    if (language == "en") {
        return sign + currencySymbol(currencyCode_) + groupThousands(units, ',') + "." + fraction;
    }
    return sign + currencyCode_ + " " + std::to_string(units) + "." + fraction;
}

}  // namespace svc
