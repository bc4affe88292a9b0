#pragma once
// Commission arithmetic (spec "What the service does", point 4: commission on gross prices).
// Rates are basis points (1/100 of a percent, 500 = 5%): integers, so no rate is ever a
// float that prints as 4.9999%. Amounts are integer cents.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "core/Result.hpp"
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

// Commission of `amount` units at gross unit price `unitPriceCents`: price x amount x rate,
// rounded half up to a whole cent once per order line. Amount and price are never negative
// here; a return books the difference of two such figures (see commissionReversal).
Result<int64_t> lineCommission(int64_t unitPriceCents, int64_t amount, int64_t basisPoints);

// What a return of `returned` units takes back when `keptBefore` units of the line were kept
// so far: commission(keptBefore) - commission(keptBefore - returned). Summed over every
// return, sale plus reversals is always the commission on the units finally kept, to the cent.
Result<int64_t> commissionReversal(int64_t unitPriceCents, int64_t keptBefore, int64_t returned, int64_t basisPoints);

}  // namespace svc
