// The HTTP boundary's one mapping of svc::Error (docs/adr/0079): status, Retry-After and body
// are decided by the error's values, never set by a route after sendError.
#include <doctest/doctest.h>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "http/HttpErrors.hpp"

using nlohmann::json;
using svc::Error;
using svc::RequestRule;

TEST_CASE("sendError maps each error to its status, Retry-After and body once") {
    struct Case {
        const char* name;
        Error error;
        int status;
        std::string retryAfter;  // "" : no header
        std::string code;
        std::string message;
        std::string field;  // "" : no member
    };
    const std::vector<Case> cases = {
        {"bad input", Error::invalidArgument("delta: must be true or false"), 400, "", "INVALID_ARGUMENT", "delta: must be true or false", ""},
        {"a field it names", Error::invalidField("currency", "must be three letters"), 400, "", "INVALID_ARGUMENT",
         "currency: must be three letters", "currency"},
        {"a media type refused", Error::invalidField("Content-Type", "events are JSON").breaking(RequestRule::MediaType).withId("svc.http.103"),
         415, "", "INVALID_ARGUMENT", "[svc.http.103] Content-Type: events are JSON", "Content-Type"},
        {"a chunked body where a length is required",
         Error::invalidField("content-length", "required").breaking(RequestRule::LengthRequired).withId("svc.http.101"), 411, "",
         "INVALID_ARGUMENT", "[svc.http.101] content-length: required", "content-length"},
        {"a body too slow", Error::invalidArgument("request body: too slowly").breaking(RequestRule::BodyDeadline), 408, "",
         "INVALID_ARGUMENT", "request body: too slowly", ""},
        {"a body too large", Error::resourceExhausted("the body is larger than 10 bytes").withId("svc.http.102"), 413, "",
         "RESOURCE_EXHAUSTED", "[svc.http.102] the body is larger than 10 bytes", ""},
        {"rate limited", Error::rateLimited("too many requests; retry after 7 s", 7).withId("svc.limit.301"), 429, "7",
         "RESOURCE_EXHAUSTED", "[svc.limit.301] too many requests; retry after 7 s", ""},
        {"shedding load on purpose", Error::unavailable("busy checking passwords").retryAfter(1), 503, "1", "UNAVAILABLE",
         "busy checking passwords", ""},
        {"unavailable by fault: no detail, no Retry-After", Error::unavailable("disk I/O error at /data/svc.sqlite3"), 503, "", "UNAVAILABLE",
         "the service could not complete the request", ""},
        {"internal", Error::internal("SQLITE_CORRUPT"), 500, "", "INTERNAL", "the service could not complete the request", ""},
        {"not found", Error::notFound("unknown API ID"), 404, "", "NOT_FOUND", "unknown API ID", ""},
        {"conflict", Error::alreadyExists("feed: taken"), 409, "", "ALREADY_EXISTS", "feed: taken", ""},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        httplib::Response response;
        svc::sendError(response, c.error);
        CHECK(response.status == c.status);
        CHECK(svc::httpStatusFor(c.error) == c.status);
        CHECK(response.get_header_value("Retry-After") == c.retryAfter);
        json error = json::parse(response.body)["error"];
        CHECK(error["code"] == c.code);
        CHECK(error["message"] == c.message);
        CHECK(error.value("field", "") == c.field);
    }
}

TEST_CASE("sendFieldErrors lists each error next to the field it carries; the first decides status and Retry-After") {
    httplib::Response response;
    Error locked = Error::rateLimited("currentPassword: locked for 15 minutes", 900).about("currentPassword");
    svc::sendFieldErrors(response, {locked, Error::invalidField("newPassword", "too short")});
    CHECK(response.status == 429);
    CHECK(response.get_header_value("Retry-After") == "900");
    json error = json::parse(response.body)["error"];
    CHECK(error["field"] == "currentPassword");
    CHECK(error["fields"] == json::array({{{"field", "currentPassword"}, {"message", "locked for 15 minutes"}},
                                          {{"field", "newPassword"}, {"message", "too short"}}}));
    // The field is the error's, not whatever precedes a colon in its message.
    httplib::Response carried;
    svc::sendFieldErrors(carried, {Error::invalidArgument("skus[2]: \"A\": listed twice").about("skus[2]")});
    CHECK(json::parse(carried.body)["error"]["fields"][0] == json{{"field", "skus[2]"}, {"message", "\"A\": listed twice"}});
}
