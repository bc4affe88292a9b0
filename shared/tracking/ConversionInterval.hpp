#pragma once
// A conversion rate with its 95% confidence interval, so that an operator comparing two
// test groups can tell noise from effect. Wilson score interval: unlike the normal
// approximation it stays inside [0, 1] and is usable for the small counts of a young test.
#include <cstdint>

namespace svc {

struct ConversionInterval {
    double rate = 0;   // successes / trials; 0 when there are no trials
    double low = 0;
    double high = 0;

    static ConversionInterval wilson(int64_t successes, int64_t trials);
};

}  // namespace svc
