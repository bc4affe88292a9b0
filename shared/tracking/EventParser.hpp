#pragma once
// Strict validation of POST /events bodies. Every problem is reported at once, each with
// its JSON path, so an integrator fixes a payload in one round trip rather than one
// field per request; a body with any problem yields no events at all.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/Error.hpp"
#include "tracking/TrackingEvent.hpp"

namespace svc {

struct EventProblem {
    std::string path;      // "products[2].amount", "events[0].type"; "$" for the body as a whole
    std::string rule;      // machine-readable: required, type, enum, minimum, maximum, ...
    std::string expected;  // what would have passed, e.g. "integer >= 1"
    std::string message;   // "<path>: <what is wrong>"

    bool operator==(const EventProblem&) const = default;
};

struct EventLimits {
    size_t maxBatchEvents = 100;
    size_t maxOrderLines = 500;
    size_t maxTextBytes = 200;   // ids, SKUs, test groups
    size_t maxDepth = 16;        // deeper bodies are refused before they are walked
    size_t maxProblems = 100;    // the answer stays small whatever the body
    int64_t maxAmount = 1'000'000;
    // With maxAmount this keeps amount x price within int64 for commission arithmetic.
    int64_t maxPrice = 1'000'000'000'000;
};

struct ParsedEvents {
    EventBatch events;                  // empty unless problems is
    std::vector<EventProblem> problems; // at most EventLimits::maxProblems; per object, unknown fields first
    size_t problemCount = 0;            // all problems found, also those beyond the list
    bool ok() const { return problemCount == 0; }
};

ParsedEvents parseEvents(std::string_view body, const EventLimits& limits = {});

// The problems as the project's error value: InvalidArgument naming the first problem and
// counting the others (the full list travels next to it in the HTTP answer).
Error eventProblemsError(const ParsedEvents& parsed);

}  // namespace svc
