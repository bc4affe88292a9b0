#pragma once
// The spec's lifecycle rule: a product absent from every feed for more than 24 hours
// is treated as out of stock. "Seen" is recorded with a resolution of one hour, so
// frequent unchanged feeds do not rewrite every row (docs/adr/0009).
#include <cstdint>

namespace svc {

constexpr int64_t kAbsentAfterSeconds = 24 * 3600;
constexpr int64_t kSeenResolutionSeconds = 3600;

inline bool isStale(int64_t lastSeenAt, int64_t now) { return now - lastSeenAt > kAbsentAfterSeconds; }

}  // namespace svc
