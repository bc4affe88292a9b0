#pragma once
// Time comes in through this interface, so that rules over time (a product absent
// from every feed for 24 hours, URL expiry) are testable with a clock tests can move.
#include <cstdint>

namespace svc {

class Clock {
public:
    virtual ~Clock() = default;
    virtual int64_t nowSeconds() const = 0;  // Unix time
};

}  // namespace svc
