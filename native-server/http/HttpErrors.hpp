#pragma once
// The one place where the core's ErrorCode becomes an HTTP status and JSON body:
// {"error": {"code": "INVALID_ARGUMENT", "message": "identifier: must name a column"}}
#include <httplib.h>

#include <vector>

#include "core/Error.hpp"

namespace svc {

int httpStatusFor(ErrorCode code);
void sendError(httplib::Response& response, const Error& error);
// Form validation (the operator console, docs/adr/0041): every problem of a request at once,
// each with the field its message starts with ("currency: ..." -> "currency"), so a form
// shows each next to its field. The first is also "field"/"message" of the error itself:
// {"error": {"code": "INVALID_ARGUMENT", "message": "...", "field": "currency",
//            "fields": [{"field": "currency", "message": "..."}, ...]}}
void sendFieldErrors(httplib::Response& response, const std::vector<Error>& errors);

}  // namespace svc
