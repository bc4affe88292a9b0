#pragma once
// Escaping for everything the SDK writes into a shop's page. Feed data is
// outside data: names, brands and URLs are always escaped, never trusted.
#include <string>
#include <string_view>

namespace svc {

// Escapes & < > " ' for use in element content and double-quoted attributes.
std::string escapeHtml(std::string_view text);

// Returns the URL when its scheme is http or https (or it is relative), else an
// empty string: a feed must not be able to plant "javascript:" links.
std::string safeUrl(std::string_view url);

}  // namespace svc
