#pragma once
// The registrable domain of a host name, for the _svc_cid cookie's Domain attribute
// (spec: "domain is the shop's second-level domain"), so that www.shop.de and
// checkout.shop.de share one id. Without the public suffix list (too large for the SDK)
// a built-in list of common multi-part suffixes decides how many labels to keep
// (docs/adr/0019); a cookie the browser refuses is caught by reading it back.
#include <optional>
#include <string>
#include <string_view>

namespace svc {

class CookieDomain {
public:
    // "shop.example.co.uk" -> "example.co.uk"; "www.shop.de" -> "shop.de".
    // nullopt for IP addresses, single labels (localhost) and bare suffixes: the cookie
    // is then host-only.
    static std::optional<std::string> registrableDomain(std::string_view hostname);
    static bool isMultiPartSuffix(std::string_view suffix);
};

}  // namespace svc
