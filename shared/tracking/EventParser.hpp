#pragma once
// Strict validation of POST /events bodies. Every problem is reported at once, each with
// its JSON path, so an integrator fixes a payload in one round trip rather than one
// field per request; a body with any problem yields no events at all.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/Error.hpp"
#include "tracking/Commission.hpp"
#include "tracking/OrderClaim.hpp"
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
    int64_t maxPrice = 1'000'000'000'000;  // cents, per unit
    // price x amount of a line, and the sum of an order's lines: what svc books (and its
    // commission at up to 100 %) stays far inside 64 bits, reports over millions of such
    // orders included (docs/adr/0055).
    Cents maxOrderTotal = kMaxOrderTotal;
};

struct ParsedEvents {
    EventBatch events;                  // empty unless problems is
    std::vector<EventProblem> problems; // at most EventLimits::maxProblems; per object, unknown fields first
    size_t problemCount = 0;            // all problems found, also those beyond the list
    bool ok() const { return problemCount == 0; }
};

ParsedEvents parseEvents(std::string_view body, const EventLimits& limits = {});

// The body of PUT /orders/{orderid} (the shop's word on an order, docs/adr/0056), as strictly:
//   {"status": "confirmed", "products": [{sku, amount, price}], "cid"?}  the order as the shop knows it
//   {"status": "confirmed", "claim": <a browser claim's id>}              that claim's version is the true one
//   {"status": "rejected"}                                                 not an order of the shop
// Lines obey the purchase's rules and money limits.
struct ParsedConfirmation {
    OrderConfirmation confirmation;      // meaningful only when ok()
    std::vector<EventProblem> problems;
    size_t problemCount = 0;
    bool ok() const { return problemCount == 0; }
};

ParsedConfirmation parseOrderConfirmation(std::string_view body, const EventLimits& limits = {});

// The problems as the project's error value: InvalidArgument naming the first problem and
// counting the others (the full list travels next to it in the HTTP answer).
Error eventProblemsError(const std::vector<EventProblem>& problems, size_t problemCount);
inline Error eventProblemsError(const ParsedEvents& parsed) { return eventProblemsError(parsed.problems, parsed.problemCount); }

}  // namespace svc
