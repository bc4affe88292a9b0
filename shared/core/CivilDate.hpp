#pragma once
// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil), for the
// parsers of dates that arrive as text (report days, HTTP dates) without the C library's time zone,
// and back.
#include <cstdint>

namespace svc {

constexpr int64_t daysFromCivil(int64_t year, int64_t month, int64_t day) {
    year -= month <= 2;
    int64_t era = (year >= 0 ? year : year - 399) / 400;
    int64_t yearOfEra = year - era * 400;
    int64_t dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    int64_t dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return era * 146097 + dayOfEra - 719468;
}

struct CivilDay {
    int64_t year, month, day;
};

// The inverse (H. Hinnant's civil_from_days): reports name their days as YYYY-MM-DD.
constexpr CivilDay civilFromDays(int64_t days) {
    days += 719468;
    int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    int64_t dayOfEra = days - era * 146097;
    int64_t yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
    int64_t dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
    int64_t monthIndex = (5 * dayOfYear + 2) / 153;
    int64_t day = dayOfYear - (153 * monthIndex + 2) / 5 + 1;
    int64_t month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
    return {yearOfEra + era * 400 + (month <= 2), month, day};
}

static_assert(daysFromCivil(1970, 1, 1) == 0);
static_assert(civilFromDays(11017).year == 2000 && civilFromDays(11017).month == 3 && civilFromDays(11017).day == 1);
static_assert(civilFromDays(-1).year == 1969 && civilFromDays(-1).month == 12 && civilFromDays(-1).day == 31);
static_assert(daysFromCivil(2000, 3, 1) == 11017);

}  // namespace svc
