#include "tracking/ConversionInterval.hpp"

#include <algorithm>
#include <cmath>

namespace svc {

ConversionInterval ConversionInterval::wilson(int64_t successes, int64_t trials) {
    if (trials <= 0) return {};
    constexpr double z = 1.959963984540054;  // two-sided 95%
    double n = static_cast<double>(trials);
    double p = std::clamp(static_cast<double>(successes) / n, 0.0, 1.0);
    double denominator = 1 + z * z / n;
    double centre = (p + z * z / (2 * n)) / denominator;
    double margin = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator;
    return {p, std::max(0.0, centre - margin), std::min(1.0, centre + margin)};
}

}  // namespace svc
