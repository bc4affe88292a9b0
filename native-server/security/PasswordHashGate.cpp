#include "security/PasswordHashGate.hpp"

#include <algorithm>

namespace svc {

PasswordHashGate::Pass PasswordHashGate::enter() {
    std::unique_lock lock(mutex_);
    if (running_ >= limits_.slots) {
        if (waiting_ >= limits_.maxWaiting) return Pass(nullptr);
        ++waiting_;
        bool free = freed_.wait_for(lock, limits_.maxWait, [this] { return running_ < limits_.slots; });
        --waiting_;
        if (!free) return Pass(nullptr);
    }
    ++running_;
    highWater_ = std::max(highWater_, running_);
    return Pass(this);
}

void PasswordHashGate::leave() {
    {
        std::lock_guard lock(mutex_);
        --running_;
    }
    freed_.notify_one();
}

int PasswordHashGate::highWater() const {
    std::lock_guard lock(mutex_);
    return highWater_;
}

}  // namespace svc
