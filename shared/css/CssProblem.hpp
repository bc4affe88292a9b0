#pragma once
// Where a stylesheet went wrong and why, in the terms an operator reads next to the CSS field:
// "line 3, column 7: ..." (lines and columns count from 1, columns in characters).
#include <cstddef>
#include <string>

namespace svc::css {

struct SourcePosition {
    size_t line = 1;
    size_t column = 1;
    bool operator<(const SourcePosition& other) const {
        return line != other.line ? line < other.line : column < other.column;
    }
    bool operator==(const SourcePosition& other) const = default;
};

struct Problem {
    SourcePosition at;
    std::string reason;

    std::string describe() const {
        return "line " + std::to_string(at.line) + ", column " + std::to_string(at.column) + ": " + reason;
    }
};

}  // namespace svc::css
