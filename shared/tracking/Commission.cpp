#include "tracking/Commission.hpp"

#include "text/StringUtil.hpp"

namespace svc {

int64_t CommissionRates::basisPointsFor(std::optional<WidgetType> widget) const {
    if (widget) {
        auto found = byWidget.find(*widget);
        if (found != byWidget.end()) return found->second;
    }
    return basisPoints;
}

std::string CommissionRates::toText() const {
    std::string text = std::to_string(basisPoints);
    for (const auto& [widget, rate] : byWidget) text += "," + std::string(widgetTypeName(widget)) + "=" + std::to_string(rate);
    return text;
}

Result<CommissionRates> CommissionRates::fromText(const std::string& text) {
    CommissionRates rates;
    auto parts = splitList(text, ',');
    if (parts.empty()) return Error::invalidArgument("commission rates: empty");
    for (size_t i = 0; i < parts.size(); ++i) {
        const std::string& part = parts[i];
        size_t equals = part.find('=');
        if (i == 0 && equals == std::string::npos) {
            auto rate = parseInt64(part);
            if (!rate || *rate < 0 || *rate > 10000) return Error::invalidArgument("commission rates: '" + part + "' is not 0 to 10000 basis points");
            rates.basisPoints = *rate;
            continue;
        }
        if (equals == std::string::npos) return Error::invalidArgument("commission rates: '" + part + "' is not WIDGET=basis points");
        auto widget = parseWidgetType(part.substr(0, equals));
        auto rate = parseInt64(part.substr(equals + 1));
        if (!widget || !rate || *rate < 0 || *rate > 10000) {
            return Error::invalidArgument("commission rates: '" + part + "' is not WIDGET=basis points");
        }
        rates.byWidget[*widget] = *rate;
    }
    return rates;
}

Result<int64_t> parseRate(const std::string& text, const std::string& field) {
    std::string value(trim(text));
    auto refuse = [&] {
        return Error::invalidArgument(field + ": '" + text + "' is not a rate such as 5%, 7.25% or 725bp (0% to 100%)");
    };
    int64_t basisPoints = 0;
    if (value.size() > 2 && value.compare(value.size() - 2, 2, "bp") == 0) {
        auto number = parseInt64(value.substr(0, value.size() - 2));
        if (!number) return refuse();
        basisPoints = *number;
    } else if (value.size() > 1 && value.back() == '%') {
        std::string number = value.substr(0, value.size() - 1);
        size_t dot = number.find('.');
        std::string whole = number.substr(0, dot);
        std::string fraction = dot == std::string::npos ? "" : number.substr(dot + 1);
        if (whole.empty() || fraction.size() > 2 || (dot != std::string::npos && fraction.empty())) return refuse();
        while (fraction.size() < 2) fraction += '0';
        auto wholePart = parseInt64(whole);
        auto fractionPart = parseInt64(fraction);
        if (!wholePart || !fractionPart || *wholePart < 0 || *fractionPart < 0 || whole.size() > 3) return refuse();
        basisPoints = *wholePart * 100 + *fractionPart;
    } else {
        return refuse();
    }
    if (basisPoints < 0 || basisPoints > 10000) return refuse();
    return basisPoints;
}

Result<Cents> lineCommission(Cents unitPrice, int64_t amount, int64_t basisPoints) {
    if (unitPrice < Cents(0) || amount < 0 || basisPoints < 0 || basisPoints > 10000) {
        return Error::invalidArgument("commission: price, amount and rate must not be negative, the rate at most 100%");
    }
    auto gross = unitPrice.times(amount);
    if (!gross) {
        return Error::invalidArgument("commission: price x amount (" + unitPrice.text() + " x " + std::to_string(amount) +
                                      ") does not fit in 64 bits");
    }
    auto commission = gross->share(basisPoints);
    if (!commission) return Error::invalidArgument("commission: the share of " + gross->text() + " cannot be computed");
    return *commission;
}

Result<Cents> commissionReversal(Cents unitPrice, int64_t keptBefore, int64_t returned, int64_t basisPoints) {
    if (returned < 0 || returned > keptBefore) return Error::invalidArgument("commission: cannot return more than was kept");
    auto before = lineCommission(unitPrice, keptBefore, basisPoints);
    if (!before) return before.error();
    auto after = lineCommission(unitPrice, keptBefore - returned, basisPoints);
    if (!after) return after.error();
    // after <= before, both non-negative: the difference always fits.
    return *before->minus(*after);
}

}  // namespace svc
