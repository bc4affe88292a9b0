#pragma once
// Time comes in through this interface, so that rules over time (a product absent
// from every feed for 24 hours, URL expiry) are testable with a clock tests can move.
#include <cstdint>

namespace svc {

class Clock {
public:
    virtual ~Clock() = default;
    virtual int64_t nowSeconds() const = 0;  // Unix time
    // Unix time in milliseconds, for rates finer than a second (token buckets). A clock that
    // only knows seconds (the tests' hand-moved clocks) answers the start of its second.
    virtual int64_t nowMillis() const { return nowSeconds() * 1000; }
};

}  // namespace svc
