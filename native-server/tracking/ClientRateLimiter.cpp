#include "tracking/ClientRateLimiter.hpp"

namespace svc {

std::optional<int> ClientRateLimiter::takeTokens(const std::string& client, int tokens, Clock::time_point now) {
    if (limit_.perSecond <= 0) return std::nullopt;
    int64_t millis = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
    auto taken = buckets_.take(client, tokens, limit_.bucket(), millis);  // kept in memory: never an error
    if (!taken || taken->taken) return std::nullopt;
    return taken->retryAfterSeconds;
}

}  // namespace svc
