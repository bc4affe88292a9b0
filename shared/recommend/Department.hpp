#pragma once
// The target group an article is made for. Sets never mix departments and similar
// lists keep to the anchor's; Unisex goes with any adult or child department.
#include <cstdint>
#include <string_view>

namespace svc {

enum class Department : uint8_t { Unknown, Men, Women, Unisex, Boys, Girls, Kids };

// Reads a department from free text ("Women", "Damen", "herren", "Kids", ...);
// Unknown when the text names none.
Department departmentFromText(std::string_view text);
// The department a word names (a single token), Unknown otherwise.
Department departmentFromToken(std::string_view token);
std::string_view departmentName(Department department);

// Whether items of the two departments may be shown together. Unknown is compatible
// with everything (a feed without the column must still get content).
bool departmentsCompatible(Department a, Department b);
// Both known and equal (Unisex counts as a match for Men and Women but not as equal).
inline bool departmentsEqual(Department a, Department b) { return a != Department::Unknown && a == b; }

}  // namespace svc
