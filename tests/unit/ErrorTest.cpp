// Unit tests of core/Error and core/Result.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <string>
#include <vector>

#include "core/Result.hpp"

using svc::Error;
using svc::ErrorCode;

TEST_CASE("errorCodeName gives the stable upper-case names") {
    const std::vector<std::pair<ErrorCode, std::string>> cases{
        {ErrorCode::InvalidArgument, "INVALID_ARGUMENT"}, {ErrorCode::NotFound, "NOT_FOUND"},
        {ErrorCode::Unauthenticated, "UNAUTHENTICATED"},  {ErrorCode::PermissionDenied, "PERMISSION_DENIED"},
        {ErrorCode::AlreadyExists, "ALREADY_EXISTS"},     {ErrorCode::ResourceExhausted, "RESOURCE_EXHAUSTED"},
        {ErrorCode::Unavailable, "UNAVAILABLE"},          {ErrorCode::Internal, "INTERNAL"},
        // gRPC's name for a quota: clients that switch on the name see what they saw before RateLimited.
        {ErrorCode::RateLimited, "RESOURCE_EXHAUSTED"},
    };
    for (const auto& [code, name] : cases) CHECK(svc::errorCodeName(code) == name);
}

TEST_CASE("Error factories set code and message") {
    const std::vector<std::pair<Error, ErrorCode>> cases{
        {Error::invalidArgument("m"), ErrorCode::InvalidArgument}, {Error::notFound("m"), ErrorCode::NotFound},
        {Error::unauthenticated("m"), ErrorCode::Unauthenticated}, {Error::permissionDenied("m"), ErrorCode::PermissionDenied},
        {Error::alreadyExists("m"), ErrorCode::AlreadyExists},     {Error::resourceExhausted("m"), ErrorCode::ResourceExhausted},
        {Error::unavailable("m"), ErrorCode::Unavailable},         {Error::internal("m"), ErrorCode::Internal},
    };
    for (const auto& [error, code] : cases) {
        CHECK(error.code == code);
        CHECK(error.message == "m");
    }
}

TEST_CASE("an error carries its field, stable id, retry-after and request rule as values, not in its message's shape") {
    Error field = Error::invalidField("currency", "must be three letters");
    CHECK(field.code == ErrorCode::InvalidArgument);
    CHECK(field.field == "currency");
    CHECK(field.message == "currency: must be three letters");
    CHECK(field.messageWithId() == field.message);

    Error limited = Error::rateLimited("too many requests", 30).withId("svc.limit.301");
    CHECK(limited.code == ErrorCode::RateLimited);
    CHECK(limited.retryAfterSeconds == 30);
    CHECK(limited.messageWithId() == "[svc.limit.301] too many requests");
    CHECK(Error::rateLimited("a bucket refilling within the second", 0).retryAfterSeconds == 1);  // Retry-After: 0 would invite a flood

    Error media = Error::invalidField("Content-Type", "must be application/json").breaking(svc::RequestRule::MediaType);
    CHECK(media.rule == svc::RequestRule::MediaType);
    CHECK(media.field == "Content-Type");
    CHECK(Error::invalidArgument("x").rule == svc::RequestRule::None);
    CHECK(Error::unavailable("busy").retryAfter(1).retryAfterSeconds == 1);
}

TEST_CASE("Result and Status hold a value or an error") {
    svc::Result<int> value = 7;
    CHECK(value.ok());
    CHECK(static_cast<bool>(value));
    CHECK(*value == 7);
    svc::Result<int> failed = Error::notFound("no such thing");
    CHECK_FALSE(failed.ok());
    CHECK(failed.error().code == ErrorCode::NotFound);
    CHECK(failed.error().message == "no such thing");
    svc::Status success = svc::Status::success();
    CHECK(success.ok());
    svc::Status failure = Error::internal("broken");
    CHECK_FALSE(failure.ok());
    CHECK(failure.error().message == "broken");
}
