#pragma once
#include <chrono>

#include "core/Clock.hpp"

namespace svc {

class SystemClock : public Clock {
public:
    int64_t nowSeconds() const override {
        return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    }
};

}  // namespace svc
