#pragma once
#include <chrono>

#include "core/Clock.hpp"

namespace svc {

class SystemClock : public Clock {
public:
    int64_t nowSeconds() const override {
        return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    }
    int64_t nowMillis() const override {
        return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    }
};

// The one system clock of a process (it holds no state), for whatever outlives a scope.
inline const Clock& systemClock() {
    static const SystemClock clock;
    return clock;
}

}  // namespace svc
