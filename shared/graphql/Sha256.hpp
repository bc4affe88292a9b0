#pragma once
// SHA-256 (FIPS 180-4) of a text, as lower-case hex: the name Apollo's automatic persisted
// queries give a document (docs/adr/0084). In the core, with no crypto library, because the
// GraphQL service checks the name a client sends against the text it sends.
#include <string>
#include <string_view>

namespace svc::graphql {

std::string sha256Hex(std::string_view text);

}  // namespace svc::graphql
