#pragma once
// The one place where the core's Error becomes an HTTP status, headers and JSON body:
// {"error": {"code": "INVALID_ARGUMENT", "message": "[svc.http.103] Content-Type: must be ...",
//            "field": "Content-Type"}}
// "field" is there when the error names one; the message starts with the error's stable id when
// it has one (docs/api/errors.md). Routes never set an error's status themselves.
#include <httplib.h>

#include <vector>

#include "core/Error.hpp"

namespace svc {

// The status decides from the code, then the request rule an InvalidArgument breaks (415, 411,
// 408). RateLimited is 429 with Retry-After; an Unavailable with a retry-after gets one too.
int httpStatusFor(const Error& error);
void sendError(httplib::Response& response, const Error& error);
// Form validation (the operator console, docs/adr/0041): every problem of a request at once,
// each with the field it names, so a form shows each next to its field. The first is also
// "field"/"message" of the error itself:
// {"error": {"code": "INVALID_ARGUMENT", "message": "...", "field": "currency",
//            "fields": [{"field": "currency", "message": "..."}, ...]}}
void sendFieldErrors(httplib::Response& response, const std::vector<Error>& errors);

}  // namespace svc
