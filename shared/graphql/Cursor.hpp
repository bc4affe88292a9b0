#pragma once
// Opaque pagination cursors. A cursor names its list, so one list's cursor is
// refused by another; issue #4 adds a signature against tampering.
#include <cstddef>
#include <string>

#include "core/Result.hpp"

namespace svc::graphql {

std::string encodeCursor(size_t index, const std::string& listName);
Result<size_t> decodeCursor(const std::string& cursor, const std::string& listName);

}  // namespace svc::graphql
