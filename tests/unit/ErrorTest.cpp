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
