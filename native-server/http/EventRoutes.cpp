#include "http/EventRoutes.hpp"

#include <nlohmann/json.hpp>

#include "http/HttpErrors.hpp"
#include "text/StringUtil.hpp"

namespace svc {
namespace {


// Shop pages on any origin post here, without credentials: the _svc_cid travels in the
// body (it is a cookie of the shop's domain, not ours), so "*" is enough and safe.
void allowAnyOrigin(httplib::Response& response) {
    response.set_header("Access-Control-Allow-Origin", "*");
    response.set_header("Access-Control-Expose-Headers", "Retry-After");
    response.set_header("Cache-Control", "no-store");
}

void sendJson(httplib::Response& response, const nlohmann::json& body, int status = 200) {
    response.status = status;
    response.set_content(body.dump(), "application/json");
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

nlohmann::json problemsBody(const ParsedEvents& parsed) {
    Error error = eventProblemsError(parsed);
    nlohmann::json problems = nlohmann::json::array();
    for (const EventProblem& problem : parsed.problems) {
        problems.push_back({{"path", problem.path}, {"rule", problem.rule}, {"expected", problem.expected}, {"message", problem.message}});
    }
    // The project's error shape, with every problem listed next to the message.
    return {{"error", {{"code", errorCodeName(error.code)},
                       {"message", error.message},
                       {"problems", std::move(problems)},
                       {"problemCount", parsed.problemCount}}}};
}

}  // namespace

void EventRoutes::registerOn(httplib::Server& server) {
    for (bool store : {true, false}) {
        std::string path = store ? "/events" : "/events/validate";
        server.Post(path, [this, store](const httplib::Request& request, httplib::Response& response, const httplib::ContentReader& reader) {
            receive(request, response, reader, store);
        });
        // fetch with Content-Type: application/json or an x-api-id header is preflighted;
        // sendBeacon with a text/plain body is not.
        server.Options(path, [](const httplib::Request&, httplib::Response& response) {
            allowAnyOrigin(response);
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
    allowAnyOrigin(response);
    // Cheapest refusals first: a flood costs neither a body read nor a tenant lookup.
    if (auto retryAfter = limiter_.take(request.remote_addr)) {
        discardBody(request, response, reader, options_.maxBodyBytes);
        sendError(response, Error::resourceExhausted("too many requests from this address; retry after " +
                                                     std::to_string(*retryAfter) + " s"));
        response.status = 429;
        response.set_header("Retry-After", std::to_string(*retryAfter));
        return;
    }
    auto tooLarge = [&] {
        return Error::resourceExhausted("the body is larger than " + std::to_string(options_.maxBodyBytes) + " bytes");
    };
    auto declaredLength = parseInt64(request.get_header_value("Content-Length"));
    if (declaredLength && static_cast<size_t>(*declaredLength) > options_.maxBodyBytes) {
        discardBody(request, response, reader, options_.maxBodyBytes);
        return sendError(response, tooLarge());
    }
    if (!isAcceptedContentType(request.get_header_value("Content-Type"))) {
        discardBody(request, response, reader, options_.maxBodyBytes);
        sendError(response, Error::invalidArgument("Content-Type: events are application/json or text/plain (UTF-8)"));
        response.status = 415;
        return;
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
    if (!parsed.ok()) return sendJson(response, problemsBody(parsed), 400);
    const auto& events = parsed.events.events;
    if (!store) return sendJson(response, {{"valid", true}, {"events", events.size()}});
    auto outcomes = writer_.write(*tenantId, events);
    if (!outcomes) return sendError(response, outcomes.error());
    size_t duplicates = 0;
    nlohmann::json results = nlohmann::json::array();
    for (AppendOutcome outcome : *outcomes) {
        bool duplicate = outcome == AppendOutcome::Duplicate;
        duplicates += duplicate ? 1 : 0;
        results.push_back({{"duplicate", duplicate}});
    }
    nlohmann::json answer{{"accepted", events.size()}, {"duplicates", duplicates}};
    if (parsed.events.batch) answer["results"] = std::move(results);
    else answer["duplicate"] = duplicates > 0;
    sendJson(response, answer);
}

}  // namespace svc
