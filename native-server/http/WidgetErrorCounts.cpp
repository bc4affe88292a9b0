#include "http/WidgetErrorCounts.hpp"

#include "text/Utf8.hpp"

namespace svc {

void WidgetErrorCounts::advance(Hours& hours, int64_t hour) {
    if (hour <= hours.newestHour) return;
    // Hours that passed without a record are zero; more than a day clears every slot.
    for (int64_t h = std::max(hours.newestHour + 1, hour - 23); h <= hour; ++h) hours.counts[static_cast<size_t>(h % 24)] = 0;
    hours.newestHour = hour;
}

void WidgetErrorCounts::record(int64_t tenantId, const std::string& message, int64_t now) {
    int64_t hour = now / 3600;
    std::lock_guard lock(mutex_);
    Hours& hours = tenants_[tenantId];
    advance(hours, hour);
    // A clock set back counts into the newest hour rather than into one already passed.
    ++hours.counts[static_cast<size_t>(hours.newestHour % 24)];
    hours.lastMessage = message.substr(0, utf8PrefixLength(message, kMaxMessageBytes));
}

std::unordered_map<int64_t, WidgetErrorFacts> WidgetErrorCounts::lastDay(int64_t now) const {
    int64_t hour = now / 3600;
    std::lock_guard lock(mutex_);
    std::unordered_map<int64_t, WidgetErrorFacts> result;
    for (const auto& [tenantId, hours] : tenants_) {
        int64_t total = 0;
        for (int64_t h = std::max(hour - 23, hours.newestHour - 23); h <= std::min(hour, hours.newestHour); ++h) {
            total += hours.counts[static_cast<size_t>(h % 24)];
        }
        if (total > 0) result[tenantId] = WidgetErrorFacts{total, hours.lastMessage};
    }
    return result;
}

}  // namespace svc
