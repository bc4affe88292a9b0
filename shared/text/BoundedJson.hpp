#pragma once
// The one way svc turns JSON from outside into nlohmann values (docs/adr/0054): request bodies,
// GET parameters, shop plugins' answers, set files, CLI input files, and what svc stored itself.
// Before nlohmann builds anything, one linear pass refuses a text that is larger or nests deeper
// than JsonLimits allow, so no recursive walk over the value (copy, dump, validation) can run out
// of stack. Errors name what was read, the place and the limit:
//   "body: line 1, column 80: nesting deeper than 64"
//   "body: 9437184 bytes, more than the limit of 8388608"
//   "variables: line 1, column 6: not valid JSON (syntax error while parsing object key - invalid literal)"
// tests/unit/JsonParseSitesTest.cpp fails the build's tests when nlohmann's parse appears anywhere else.
#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/Result.hpp"
#include "text/JsonLimits.hpp"

namespace svc {

class BoundedJson {
public:
    // `what` names the text in errors ("body", "variables", "attributes answer", a file name).
    // InvalidArgument for syntax and depth, ResourceExhausted for size.
    static Result<nlohmann::json> parse(std::string_view text, std::string_view what, const JsonLimits& limits = {});
    static Result<nlohmann::ordered_json> parseOrdered(std::string_view text, std::string_view what, const JsonLimits& limits = {});

    // The byte offset of the first '[' or '{' that opens a level deeper than maxDepth, or npos.
    // Exact for every text nlohmann accepts (brackets inside strings are skipped); in O(size)
    // time and O(1) memory.
    static size_t firstTooDeep(std::string_view text, size_t maxDepth);
    // "line L, column C" of a byte offset (both 1-based; columns count bytes, as nlohmann's do).
    static std::string positionOf(std::string_view text, size_t offset);
};

}  // namespace svc
