#include "net/PoliteFetchPolicy.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include "core/CivilDate.hpp"

namespace svc {
namespace {

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}

std::optional<int64_t> digits(std::string_view text, size_t length) {
    if (text.size() != length) return std::nullopt;
    int64_t value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return value;
}

// "Sun, 06 Nov 1994 08:49:37 GMT" (RFC 9110 IMF-fixdate, the form senders must use).
std::optional<int64_t> parseImfFixdate(std::string_view text) {
    if (text.size() != 29 || text[3] != ',' || text[4] != ' ' || text[7] != ' ' || text[11] != ' ' || text[16] != ' ' || text[19] != ':' ||
        text[22] != ':' || text.substr(25) != " GMT") {
        return std::nullopt;
    }
    static constexpr std::array<std::string_view, 12> kMonths{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    auto month = std::find(kMonths.begin(), kMonths.end(), text.substr(8, 3));
    auto day = digits(text.substr(5, 2), 2), year = digits(text.substr(12, 4), 4);
    auto hour = digits(text.substr(17, 2), 2), minute = digits(text.substr(20, 2), 2), second = digits(text.substr(23, 2), 2);
    if (month == kMonths.end() || !day || !year || !hour || !minute || !second) return std::nullopt;
    if (*day < 1 || *day > 31 || *hour > 23 || *minute > 59 || *second > 60) return std::nullopt;
    int64_t monthNumber = month - kMonths.begin() + 1;
    return daysFromCivil(*year, monthNumber, *day) * 86400 + *hour * 3600 + *minute * 60 + *second;
}

}  // namespace

bool PoliteFetchPolicy::tryAcquire(const std::string& host, int64_t nowMs) {
    auto& state = hosts_[host];
    if (state.pausedUntilMs > nowMs || state.inFlight >= options_.perHostLimit) return false;
    ++state.inFlight;
    return true;
}

void PoliteFetchPolicy::release(const std::string& host) {
    auto found = hosts_.find(host);
    if (found == hosts_.end() || found->second.inFlight == 0) return;
    if (--found->second.inFlight == 0 && found->second.pausedUntilMs == 0) hosts_.erase(found);  // idle hosts cost nothing
}

int PoliteFetchPolicy::inFlight(const std::string& host) const {
    auto found = hosts_.find(host);
    return found == hosts_.end() ? 0 : found->second.inFlight;
}

void PoliteFetchPolicy::pauseHost(const std::string& host, int64_t untilMs) {
    auto& state = hosts_[host];
    state.pausedUntilMs = std::max(state.pausedUntilMs, untilMs);
}

int64_t PoliteFetchPolicy::pausedUntilMs(const std::string& host) const {
    auto found = hosts_.find(host);
    return found == hosts_.end() ? 0 : found->second.pausedUntilMs;
}

bool PoliteFetchPolicy::retryableStatus(long status) {
    return status == 0 || status == 408 || status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
}

int64_t PoliteFetchPolicy::backoffMs(int attempt) const {
    int64_t delay = options_.backoffBaseMs;
    for (int i = 1; i < attempt && delay < options_.backoffMaxMs; ++i) delay *= 2;
    return std::min(delay, options_.backoffMaxMs);
}

std::optional<int64_t> PoliteFetchPolicy::retryDelayMs(int attempt, long status, std::string_view retryAfter, int64_t nowUnixSeconds) const {
    if (!retryableStatus(status) || attempt >= options_.maxAttempts) return std::nullopt;
    int64_t delay = backoffMs(attempt);
    if (status == 429 || status == 503) {
        if (auto asked = parseRetryAfterMs(retryAfter, nowUnixSeconds)) {
            if (*asked > options_.maxRetryAfterMs) return std::nullopt;
            delay = *asked;  // the server said when: sooner would be rude, later wastes the slot
        }
    }
    return delay;
}

std::optional<int64_t> PoliteFetchPolicy::parseRetryAfterMs(std::string_view value, int64_t nowUnixSeconds) {
    value = trimmed(value);
    if (value.empty()) return std::nullopt;
    if (value.find_first_not_of("0123456789") == std::string_view::npos) {
        int64_t seconds = 0;
        auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), seconds);
        if (error != std::errc() || end != value.data() + value.size()) return std::nullopt;  // too many digits
        if (seconds > int64_t{1} << 40) return std::nullopt;
        return seconds * 1000;
    }
    auto at = parseImfFixdate(value);
    if (!at) return std::nullopt;
    return std::max<int64_t>(0, *at - nowUnixSeconds) * 1000;
}

}  // namespace svc
