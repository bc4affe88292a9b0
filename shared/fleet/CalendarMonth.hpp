#pragma once
// UTC calendar months from Unix seconds, for "this month vs last month" (docs/adr/0066). The
// stores key their monthly counters by the same YYYYMM number (SQLite's strftime('%Y%m')).
#include <cstdint>
#include <string>

namespace svc {

struct CalendarMonth {
    int year = 1970;
    int month = 1;  // 1-12

    static CalendarMonth of(int64_t unixSeconds);
    int key() const { return year * 100 + month; }  // 202506
    std::string text() const;                        // "2025-06"
    CalendarMonth previous() const;
    int64_t startSeconds() const;
    int64_t endSeconds() const;  // the next month's start
};

}  // namespace svc
