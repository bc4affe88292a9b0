#include "http/EventRoutes.hpp"

#include <nlohmann/json.hpp>

#include <map>

#include "http/RequestContext.hpp"
#include "http/HttpErrors.hpp"
#include "http/HttpJson.hpp"
#include "net/IpAddress.hpp"
#include "text/StringUtil.hpp"

namespace svc {
namespace {


// Shop pages on any origin post here, without credentials: the _svc_cid travels in the
// body (it is a cookie of the shop's domain, not ours), so "*" is enough and safe.
void allowEventsFromAnyPage(httplib::Response& response) {
    response.set_header("Access-Control-Allow-Origin", "*");
    response.set_header("Access-Control-Expose-Headers", "Retry-After");
    response.set_header("Cache-Control", "no-store");
}

// application/json from fetch and XHR, text/plain from sendBeacon (a string body) and from
// XHR without a type, none at all from some clients; always UTF-8.
bool isAcceptedContentType(const std::string& contentType) {
    if (trim(contentType).empty()) return true;
    auto parameters = splitList(contentType, ';');
    if (parameters.empty()) return true;
    std::string type = toLower(parameters.front());
    if (type != "application/json" && type != "text/plain") return false;
    for (size_t i = 1; i < parameters.size(); ++i) {
        std::string parameter = toLower(parameters[i]);
        if (parameter.rfind("charset=", 0) == 0 && parameter != "charset=utf-8" && parameter != "charset=\"utf-8\"") return false;
    }
    return true;
}

// A request refused before its body was read leaves the body on a keep-alive connection,
// where it would be read as the next request: read and drop it when it is small, close
// the connection when it is not.
void discardBody(const httplib::Request& request, httplib::Response& response, const httplib::ContentReader& reader,
                 size_t maxBodyBytes) {
    auto length = parseInt64(request.get_header_value("Content-Length"));
    if (!length || *length <= 0) return;
    if (static_cast<size_t>(*length) > maxBodyBytes) {
        response.set_header("Connection", "close");
        return;
    }
    reader([](const char*, size_t) { return true; });
}

Error tooMany(int retryAfter, const std::string& what, const char* id) {
    return Error::rateLimited(what + "; retry after " + std::to_string(retryAfter) + " s", retryAfter).withId(id);
}

}  // namespace

nlohmann::json eventProblemsBody(const std::vector<EventProblem>& list, size_t problemCount) {
    Error error = eventProblemsError(list, problemCount);
    nlohmann::json problems = nlohmann::json::array();
    for (const EventProblem& problem : list) {
        problems.push_back({{"path", problem.path}, {"rule", problem.rule}, {"expected", problem.expected}, {"message", problem.message}});
    }
    // The project's error shape, with every problem listed next to the message.
    return {{"error", {{"code", errorCodeName(error.code)},
                       {"message", error.message},
                       {"problems", std::move(problems)},
                       {"problemCount", problemCount}}}};
}

std::string purchaseClientKey(const std::string& remoteAddress) {
    auto address = IpAddress::parse(remoteAddress);
    if (!address || address->isV4()) return remoteAddress;
    if (auto v4 = address->embeddedV4()) return v4->toString();
    std::array<uint8_t, 16> network{};
    std::copy(address->bytes(), address->bytes() + 8, network.begin());
    return IpAddress::v6(network).toString() + "/64";
}

std::optional<Error> EventRoutes::limitPurchases(const httplib::Request& request, int64_t tenantId,
                                                                       const std::vector<TrackingEvent>& events) {
    int purchases = 0;
    std::map<std::string, int> byVisitor;
    for (const auto& event : events) {
        const auto* purchase = std::get_if<PurchaseEvent>(&event);
        if (!purchase) continue;
        ++purchases;
        if (purchase->cid) ++byVisitor[std::to_string(tenantId) + ":" + *purchase->cid];
    }
    if (purchases == 0) return std::nullopt;
    int64_t now = clock_.nowMillis();
    if (options_.purchasesPerAddress.perSecond > 0) {
        auto taken = sharedLimits_.take("purchases/address/" + purchaseClientKey(clientAddress(request)), purchases,
                                        options_.purchasesPerAddress.bucket(), now);
        if (!taken) return taken.error();
        if (!taken->taken) return tooMany(taken->retryAfterSeconds, "too many purchases from this address", "svc.limit.302");
    }
    if (options_.purchasesPerVisitor.perSecond > 0) {
        for (const auto& [visitor, count] : byVisitor) {
            auto taken = sharedLimits_.take("purchases/visitor/" + visitor, count, options_.purchasesPerVisitor.bucket(), now);
            if (!taken) return taken.error();
            if (!taken->taken) return tooMany(taken->retryAfterSeconds, "too many purchases by this visitor (cid)", "svc.limit.303");
        }
    }
    return std::nullopt;
}

void EventRoutes::registerOn(httplib::Server& server) {
    for (bool store : {true, false}) {
        std::string path = store ? "/events" : "/events/validate";
        server.Post(path, [this, store](const httplib::Request& request, httplib::Response& response, const httplib::ContentReader& reader) {
            receive(request, response, reader, store);
        });
        // fetch with Content-Type: application/json or an x-api-id header is preflighted;
        // sendBeacon with a text/plain body is not.
        server.Options(path, [](const httplib::Request&, httplib::Response& response) {
            allowEventsFromAnyPage(response);
            response.set_header("Access-Control-Allow-Methods", "POST, OPTIONS");
            response.set_header("Access-Control-Allow-Headers", "content-type, x-api-id");
            response.set_header("Access-Control-Max-Age", "86400");
            response.status = 204;
        });
    }
}

Result<int64_t> EventRoutes::tenantOf(const httplib::Request& request) {
    std::string apiId = request.get_header_value("x-api-id");
    if (apiId.empty()) apiId = request.get_param_value("apiId");
    if (apiId.empty()) return Error::unauthenticated("x-api-id: required (or the apiId query parameter)");
    auto tenant = tenants_.findByApiId(apiId);
    if (!tenant) return tenant.error();
    if (!*tenant) return Error::unauthenticated("x-api-id: unknown API ID");
    if ((*tenant)->disabled) return Error::permissionDenied("x-api-id: the tenant is disabled");
    return (*tenant)->id;
}

void EventRoutes::receive(const httplib::Request& request, httplib::Response& response, const httplib::ContentReader& reader,
                          bool store) {
    allowEventsFromAnyPage(response);
    // Cheapest refusals first: a flood costs neither a body read nor a tenant lookup.
    if (auto retryAfter = limiter_.take(clientAddress(request))) {
        discardBody(request, response, reader, options_.maxBodyBytes);
        return sendError(response, tooMany(*retryAfter, "too many requests from this address", "svc.limit.301"));
    }
    auto tooLarge = [&] {
        return Error::resourceExhausted("the body is larger than " + std::to_string(options_.maxBodyBytes) + " bytes").withId("svc.http.102");
    };
    auto declaredLength = parseInt64(request.get_header_value("Content-Length"));
    if (declaredLength && static_cast<size_t>(*declaredLength) > options_.maxBodyBytes) {
        discardBody(request, response, reader, options_.maxBodyBytes);
        return sendError(response, tooLarge());
    }
    if (!isAcceptedContentType(request.get_header_value("Content-Type"))) {
        discardBody(request, response, reader, options_.maxBodyBytes);
        return sendError(response, Error::invalidField("Content-Type", "events are application/json or text/plain (UTF-8)")
                                       .breaking(RequestRule::MediaType)
                                       .withId("svc.http.103"));
    }
    auto tenantId = tenantOf(request);
    if (!tenantId) {
        discardBody(request, response, reader, options_.maxBodyBytes);
        return sendError(response, tenantId.error());
    }
    std::string body;
    // Without a Content-Length there is no body (chunked bodies are refused before routing):
    // reading would wait for the connection to close.
    if (declaredLength && *declaredLength > 0) {
        body.reserve(static_cast<size_t>(*declaredLength));
        bool overflow = false;
        bool complete = reader([&](const char* data, size_t length) {
            overflow = body.size() + length > options_.maxBodyBytes;
            if (overflow) return false;
            body.append(data, length);
            return true;
        });
        if (!complete) {
            if (overflow) return sendError(response, tooLarge());
            return sendError(response, Error::invalidArgument("body: the request ended before its Content-Length"));
        }
    }
    ParsedEvents parsed = parseEvents(body, options_.limits);
    if (!parsed.ok()) return sendJson(response, 400, eventProblemsBody(parsed.problems, parsed.problemCount));
    const auto& events = parsed.events.events;
    if (!store) return sendJson(response, 200, {{"valid", true}, {"events", events.size()}});
    if (auto limited = limitPurchases(request, *tenantId, events)) return sendError(response, *limited);
    auto outcomes = writer_.write(*tenantId, events);
    if (!outcomes) return sendError(response, outcomes.error());
    size_t duplicates = 0, conflicts = 0;
    nlohmann::json results = nlohmann::json::array();
    for (size_t i = 0; i < outcomes->size(); ++i) {
        AppendOutcome outcome = (*outcomes)[i];
        if (outcome == AppendOutcome::TooManyClaims) {
            // Nothing of the request was stored; the order waits for the shop's word.
            const auto& orderId = std::get<PurchaseEvent>(events[i]).orderId;
            std::string path = parsed.events.batch ? "events[" + std::to_string(i) + "].orderid" : "orderid";
            return sendError(response, Error::alreadyExists(path + ": order '" + orderId + "' already has " +
                                                            std::to_string(kMaxBrowserClaimsPerOrder) +
                                                            " differing claims; the shop settles it (PUT /orders/{orderid})"));
        }
        bool duplicate = outcome == AppendOutcome::Duplicate;
        bool conflict = outcome == AppendOutcome::Conflict;
        duplicates += duplicate ? 1 : 0;
        conflicts += conflict ? 1 : 0;
        nlohmann::json result{{"duplicate", duplicate}};
        // Stored, but disagreeing with an earlier claim on the order or the shop's word: it earns
        // nothing unless the shop confirms it (docs/adr/0056).
        if (conflict) result["conflict"] = true;
        results.push_back(std::move(result));
    }
    nlohmann::json answer{{"accepted", events.size()}, {"duplicates", duplicates}};
    if (conflicts > 0) answer["conflicts"] = conflicts;
    if (parsed.events.batch) {
        answer["results"] = std::move(results);
    } else {
        answer["duplicate"] = duplicates > 0;
        if (conflicts > 0) answer["conflict"] = true;
    }
    sendJson(response, 200, answer);
}

}  // namespace svc
