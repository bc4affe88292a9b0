#pragma once
// At most a few Argon2id hashes at once (docs/adr/0059). Each hash at the production cost takes
// 64 MiB for a few tenths of a second; without a bound, N concurrent sign-ins take N × 64 MiB
// (57 of them took 1.5 GB). A request past the bound waits a bounded time in a bounded queue,
// then is turned away ("busy"): memory and the HTTP worker threads stay bounded whatever arrives.
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace svc {

struct PasswordHashLimits {
    // Hashes running at once. 2 × 64 MiB at the production cost; more adds memory, not speed, on a small host.
    int slots = 2;
    // Requests waiting for a slot; past it a request is turned away at once (keeps worker threads free).
    int maxWaiting = 8;
    // How long one request waits for a slot before it is turned away.
    std::chrono::milliseconds maxWait{2000};
};

class PasswordHashGate {
public:
    explicit PasswordHashGate(PasswordHashLimits limits) : limits_(limits) {}

    // A slot held until destroyed; `entered()` is false when the gate was busy.
    class Pass {
    public:
        Pass(Pass&& other) noexcept : gate_(other.gate_) { other.gate_ = nullptr; }
        Pass(const Pass&) = delete;
        Pass& operator=(const Pass&) = delete;
        Pass& operator=(Pass&&) = delete;
        ~Pass() {
            if (gate_) gate_->leave();
        }
        bool entered() const { return gate_ != nullptr; }

    private:
        friend class PasswordHashGate;
        explicit Pass(PasswordHashGate* gate) : gate_(gate) {}
        PasswordHashGate* gate_;
    };

    Pass enter();
    // The most hashes that ever ran at once (tests: never more than the slots).
    int highWater() const;
    const PasswordHashLimits& limits() const { return limits_; }

private:
    void leave();

    PasswordHashLimits limits_;
    mutable std::mutex mutex_;
    std::condition_variable freed_;
    int running_ = 0;
    int waiting_ = 0;
    int highWater_ = 0;
};

}  // namespace svc
