#pragma once
#include <cstdint>
#include <string>

namespace svc {

// Formats integer cents for display. Locales differ in decimal separator and
// symbol position; only the shapes svc's tenants use are supported, and an
// unknown locale falls back to the international "EUR 19.99" form.
class MoneyFormatter {
public:
    MoneyFormatter(std::string currencyCode, std::string locale);
    std::string format(int64_t cents) const;
    // Decimal string without symbol, as GraphQL's Price.amount ("19.99").
    static std::string decimalAmount(int64_t cents);

private:
    std::string currencyCode_;
    std::string locale_;
};

}  // namespace svc
