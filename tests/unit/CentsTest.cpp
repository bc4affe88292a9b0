// Checked money (docs/adr/0055): every operation either gives the exact result or says it
// cannot, at the edges of 64 bits too; the rate share rounds half up like commission always
// did, checked against exact 128-bit arithmetic; data-driven.
#include <doctest/doctest.h>

#include <limits>
#include <random>

#include "money/Cents.hpp"

using namespace svc;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

// floor(x * bp / 10000 + 1/2), exactly.
int64_t exactShare(int64_t amount, int64_t basisPoints) {
    __int128 scaled = static_cast<__int128>(amount) * basisPoints + 5000;
    __int128 quotient = scaled / 10000;
    if (scaled % 10000 < 0) --quotient;
    return static_cast<int64_t>(quotient);
}

}  // namespace

TEST_CASE("Cents: sums, differences and products are exact or refused, never wrapped") {
    struct Case {
        const char* name;
        std::optional<Cents> result;
        std::optional<int64_t> expected;
    };
    const std::vector<Case> cases{
        {"plus", Cents(1999).plus(1), 2000},
        {"plus up to the largest", Cents(kMax - 1).plus(1), kMax},
        {"plus beyond the largest", Cents(kMax).plus(1), std::nullopt},
        {"plus below the lowest", Cents(kMin).plus(-1), std::nullopt},
        {"minus", Cents(5).minus(7), -2},
        {"minus beyond the lowest", Cents(kMin + 1).minus(2), std::nullopt},
        {"times", Cents(1999).times(3), 5997},
        {"times a negative amount (a return)", Cents(1999).times(-2), -3998},
        {"the poisoned line: 10^12 x 10^6 fits", Cents(1'000'000'000'000).times(1'000'000), 1'000'000'000'000'000'000},
        {"10^12 x 10^7 does not", Cents(1'000'000'000'000).times(10'000'000), std::nullopt},
        {"times overflowing negative", Cents(kMin).times(-1), std::nullopt},
        {"negated", Cents(42).negated(), -42},
        {"negated lowest", Cents(kMin).negated(), std::nullopt},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        REQUIRE(c.result.has_value() == c.expected.has_value());
        if (c.expected) CHECK(c.result->cents() == *c.expected);
    }
}

TEST_CASE("Cents::share: the rate's share, half up to the cent, of any amount at any rate up to 100 %") {
    struct Case {
        int64_t amount, basisPoints;
        std::optional<int64_t> expected;
    };
    const std::vector<Case> cases{
        {3998, 500, 200},       // 1.999 -> 2.00
        {3333, 500, 167},       // 1.6665 -> 1.67
        {1, 5000, 1},           // 0.005 -> 0.01: half up
        {1, 4999, 0},
        {-1, 5000, 0},          // -0.005 -> 0.00: half up, toward +infinity
        {-3, 5000, -1},         // -0.015 -> -0.01
        {-1, 5001, -1},
        {0, 10000, 0},
        {kMax, 10000, kMax},    // 100 % of the largest amount is the amount: no intermediate overflows
        {kMin, 10000, kMin},
        {1'000'000'000'000'000'000, 500, 50'000'000'000'000'000},  // the poisoned line at 5 %: what wrapped before
        {kMax, 9999, exactShare(kMax, 9999)},
        {100, -1, std::nullopt},     // no rate below 0 %
        {100, 10001, std::nullopt},  // nor above 100 %
    };
    for (const auto& c : cases) {
        CAPTURE(c.amount);
        CAPTURE(c.basisPoints);
        auto share = Cents(c.amount).share(c.basisPoints);
        REQUIRE(share.has_value() == c.expected.has_value());
        if (c.expected) CHECK(share->cents() == *c.expected);
    }
    // Against exact arithmetic over the whole range.
    std::mt19937_64 random(55);
    std::uniform_int_distribution<int64_t> amounts(kMin, kMax);
    std::uniform_int_distribution<int64_t> rates(0, 10000);
    for (int i = 0; i < 20000; ++i) {
        int64_t amount = i % 2 ? amounts(random) : amounts(random) % 100000;
        int64_t basisPoints = rates(random);
        CAPTURE(amount);
        CAPTURE(basisPoints);
        REQUIRE(Cents(amount).share(basisPoints)->cents() == exactShare(amount, basisPoints));
    }
}

TEST_CASE("Cents compare as numbers and print as the integer they are") {
    CHECK(Cents(-1) < Cents(0));
    CHECK(Cents(kMax) == Cents::max());
    CHECK(Cents(1999) == 1999);
    CHECK(Cents(kMin).text() == "-9223372036854775808");
    CHECK(Cents(1999).text() == "1999");
}
