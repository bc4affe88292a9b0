#pragma once
// An amount of money in minor units (cents), whose arithmetic cannot overflow silently
// (docs/adr/0055). Every sum, product and rate share of money in svc goes through the
// checked operations below, which answer nullopt where the exact result does not fit in
// 64 bits: a caller either refuses the input (naming its field) or sets the one figure aside,
// and a wrapped negative revenue can never reach a report or a ledger. There are no
// arithmetic operators on purpose: `a + b` on money does not compile.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace svc {

class Cents {
public:
    constexpr Cents() = default;
    // Implicit: a literal or a stored integer is a number of cents; the way out is cents().
    constexpr Cents(int64_t cents) : cents_(cents) {}  // NOLINT(google-explicit-constructor)

    constexpr int64_t cents() const { return cents_; }
    // "123" as the integer it is: what JSON, CSV, SQLite and messages hold (never a formatted amount).
    std::string text() const { return std::to_string(cents_); }

    constexpr std::optional<Cents> plus(Cents other) const {
        int64_t sum = 0;
        if (__builtin_add_overflow(cents_, other.cents_, &sum)) return std::nullopt;
        return Cents(sum);
    }
    constexpr std::optional<Cents> minus(Cents other) const {
        int64_t difference = 0;
        if (__builtin_sub_overflow(cents_, other.cents_, &difference)) return std::nullopt;
        return Cents(difference);
    }
    // This amount `units` times: a unit price times an amount.
    constexpr std::optional<Cents> times(int64_t units) const {
        int64_t product = 0;
        if (__builtin_mul_overflow(cents_, units, &product)) return std::nullopt;
        return Cents(product);
    }
    constexpr std::optional<Cents> negated() const { return Cents(0).minus(*this); }

    // basisPoints / 10000 of this amount (500 = 5 %), rounded half up to a whole cent
    // (floor(x * bp / 10000 + 1/2), also for negative amounts); nullopt unless 0 <= bp <= 10000.
    // Divided before multiplying, so no intermediate exceeds the amount itself: a share of any
    // representable amount at any rate up to 100 % is representable.
    constexpr std::optional<Cents> share(int64_t basisPoints) const {
        if (basisPoints < 0 || basisPoints > kWhole) return std::nullopt;
        int64_t whole = cents_ / kWhole;      // truncated toward zero
        int64_t remainder = cents_ % kWhole;  // same sign as cents_, |remainder| < 10000
        int64_t scaled = remainder * basisPoints + kWhole / 2;  // |.| < 10^8 + 5000
        int64_t rounded = scaled / kWhole - (scaled % kWhole < 0 ? 1 : 0);  // floor division
        int64_t wholePart = 0;
        if (__builtin_mul_overflow(whole, basisPoints, &wholePart)) return std::nullopt;
        return Cents(wholePart).plus(Cents(rounded));
    }

    static constexpr Cents max() { return Cents(std::numeric_limits<int64_t>::max()); }

    constexpr auto operator<=>(const Cents&) const = default;

private:
    static constexpr int64_t kWhole = 10000;  // basis points in 100 %
    int64_t cents_ = 0;
};

}  // namespace svc
