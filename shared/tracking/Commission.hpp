#pragma once
// Commission arithmetic (spec "What the service does", point 4: commission on gross prices).
// Rates are basis points (1/100 of a percent, 500 = 5%): integers, so no rate is ever a
// float that prints as 4.9999%. Amounts are Cents, whose arithmetic is checked (docs/adr/0055).
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "core/Result.hpp"
#include "money/Cents.hpp"
#include "widget/WidgetSpec.hpp"

namespace svc {

// A tenant's contract: one rate, optionally another per widget type.
struct CommissionRates {
    int64_t basisPoints = 0;
    std::map<WidgetType, int64_t> byWidget;

    int64_t basisPointsFor(std::optional<WidgetType> widget) const;
    // "500" or "500,SET=750,SIMILAR=400": what the tenants table stores and the CLI shows.
    std::string toText() const;
    static Result<CommissionRates> fromText(const std::string& text);
    bool operator==(const CommissionRates&) const = default;
};

// Parses a rate as an operator writes it: "5%", "7.25%" or basis points "725bp"; at most
// two decimals of a percent, 0% to 100%. Errors name `field`.
Result<int64_t> parseRate(const std::string& text, const std::string& field);

// The largest order (and so order line: price x amount) svc takes at POST /events and books:
// 10^12 cents, ten billion in major units. Its commission at any rate up to 100 % is at most as
// much, and a tenant's report can add up more than nine million such orders before a sum
// could leave 64 bits (docs/adr/0055).
inline constexpr Cents kMaxOrderTotal{1'000'000'000'000};

// Commission of `amount` units at gross unit price `unitPrice`: price x amount x rate, rounded
// half up to a whole cent once per order line. Amount and price are never negative here; a
// return books the difference of two such figures (see commissionReversal). Refused, never
// wrapped, when price x amount does not fit.
Result<Cents> lineCommission(Cents unitPrice, int64_t amount, int64_t basisPoints);

// What a return of `returned` units takes back when `keptBefore` units of the line were kept
// so far: commission(keptBefore) - commission(keptBefore - returned). Summed over every
// return, sale plus reversals is always the commission on the units finally kept, to the cent.
Result<Cents> commissionReversal(Cents unitPrice, int64_t keptBefore, int64_t returned, int64_t basisPoints);

}  // namespace svc
