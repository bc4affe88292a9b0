#pragma once
// The one place where the core's ErrorCode becomes an HTTP status and JSON body:
// {"error": {"code": "INVALID_ARGUMENT", "message": "identifier: must name a column"}}
#include <httplib.h>

#include "core/Error.hpp"

namespace svc {

int httpStatusFor(ErrorCode code);
void sendError(httplib::Response& response, const Error& error);

}  // namespace svc
