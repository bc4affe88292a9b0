#include "fleet/CalendarMonth.hpp"

#include <cstdio>

namespace svc {
namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
int64_t daysFromCivil(int64_t year, int month, int day) {
    year -= month <= 2;
    const int64_t era = (year >= 0 ? year : year - 399) / 400;
    const int64_t yearOfEra = year - era * 400;
    const int64_t dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    const int64_t dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return era * 146097 + dayOfEra - 719468;
}

}  // namespace

CalendarMonth CalendarMonth::of(int64_t unixSeconds) {
    int64_t days = unixSeconds >= 0 ? unixSeconds / 86400 : (unixSeconds - 86399) / 86400;
    days += 719468;
    const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const int64_t dayOfEra = days - era * 146097;
    const int64_t yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
    const int64_t dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
    const int64_t shifted = (5 * dayOfYear + 2) / 153;
    const int month = static_cast<int>(shifted < 10 ? shifted + 3 : shifted - 9);
    const int64_t year = yearOfEra + era * 400 + (month <= 2);
    return CalendarMonth{static_cast<int>(year), month};
}

std::string CalendarMonth::text() const {
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "%04d-%02d", year, month);
    return buffer;
}

CalendarMonth CalendarMonth::previous() const { return month == 1 ? CalendarMonth{year - 1, 12} : CalendarMonth{year, month - 1}; }

int64_t CalendarMonth::startSeconds() const { return daysFromCivil(year, month, 1) * 86400; }

int64_t CalendarMonth::endSeconds() const {
    return (month == 12 ? CalendarMonth{year + 1, 1} : CalendarMonth{year, month + 1}).startSeconds();
}

}  // namespace svc
