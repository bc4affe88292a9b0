// Unit tests of money/MoneyFormatter.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "money/MoneyFormatter.hpp"

using svc::MoneyFormatter;

namespace {
const std::string kNbsp = "\xC2\xA0";        // U+00A0 NO-BREAK SPACE
const std::string kEuro = "\xE2\x82\xAC";    // U+20AC EURO SIGN
const std::string kZloty = "z\xC5\x82";      // "zł"
}  // namespace

TEST_CASE("MoneyFormatter::format per locale and currency") {
    struct FormatCase {
        std::string currency;
        std::string locale;
        int64_t cents;
        std::string expected;
    };
    const std::vector<FormatCase> cases{
        // German shape: grouping dot, decimal comma, no-break space, symbol last.
        {"EUR", "de-DE", 123456, "1.234,56" + kNbsp + kEuro},
        {"EUR", "de-DE", 1999, "19,99" + kNbsp + kEuro},
        {"EUR", "de-DE", 0, "0,00" + kNbsp + kEuro},
        {"EUR", "de-DE", 5, "0,05" + kNbsp + kEuro},
        {"EUR", "de-DE", 50, "0,50" + kNbsp + kEuro},
        {"EUR", "de-DE", 100000, "1.000,00" + kNbsp + kEuro},
        {"EUR", "de-DE", 99999, "999,99" + kNbsp + kEuro},
        {"EUR", "de-DE", 123456789012, "1.234.567.890,12" + kNbsp + kEuro},
        {"EUR", "de-DE", -123456, "-1.234,56" + kNbsp + kEuro},
        {"EUR", "de-DE", -5, "-0,05" + kNbsp + kEuro},
        {"EUR", "de-AT", 1000, "10,00" + kNbsp + kEuro},
        {"EUR", "fr-FR", 99, "0,99" + kNbsp + kEuro},
        {"EUR", "nl-NL", 250000, "2.500,00" + kNbsp + kEuro},
        {"PLN", "pl-PL", 1999, "19,99" + kNbsp + kZloty},
        {"CHF", "de-CH", 500, "5,00" + kNbsp + "CHF"},  // unknown currency: its code as symbol
        // English shape: symbol first, grouping comma, decimal point.
        {"EUR", "en-GB", 123456, kEuro + "1,234.56"},
        {"EUR", "en", 5, kEuro + "0.05"},
        {"USD", "en-US", 123456789, "$1,234,567.89"},
        {"USD", "en-US", -199, "-$1.99"},
        {"USD", "en-US", 0, "$0.00"},
        // Unknown locale: the international form, without grouping.
        {"EUR", "it-IT", 1234, "EUR 12.34"},
        {"EUR", "xx", 123456, "EUR 1234.56"},
        {"EUR", "", 5, "EUR 0.05"},
        {"USD", "es-ES", -1234, "-USD 12.34"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.currency);
        CAPTURE(c.locale);
        CAPTURE(c.cents);
        CHECK(MoneyFormatter(c.currency, c.locale).format(c.cents) == c.expected);
    }
}

TEST_CASE("MoneyFormatter::decimalAmount is the plain decimal string") {
    struct AmountCase {
        int64_t cents;
        std::string expected;
    };
    const std::vector<AmountCase> cases{
        {1999, "19.99"},
        {-5, "-0.05"},
        {0, "0.00"},
        {5, "0.05"},
        {10, "0.10"},
        {100, "1.00"},
        {-100, "-1.00"},
        {123456, "1234.56"},  // never grouped
        {std::numeric_limits<int64_t>::max(), "92233720368547758.07"},
        {std::numeric_limits<int64_t>::min(), "-92233720368547758.08"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.cents);
        CHECK(MoneyFormatter::decimalAmount(c.cents) == c.expected);
    }
}
