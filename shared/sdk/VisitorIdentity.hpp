#pragma once
// The anonymous ids and settings the SDK keeps in the browser (spec: "Browser storage
// items"): _svc_cid (cookie, 730 days, refreshed on every visit, on the registrable
// domain), _svc_sid (sessionStorage) and _svc_cse_config (localStorage). Storage that is
// blocked or throws yields ids that live for this page only: tracking degrades, the
// shop's page never breaks.
#include <optional>
#include <string>
#include <string_view>

#include "sdk/BrowserStorage.hpp"

namespace svc {

struct VisitorIds {
    std::string cid;      // 32 hex digits
    std::string sid;      // 32 hex digits
    std::string variant;  // the engine variant from _svc_cse_config ("" when none is set)
    bool cidStored = false;  // the cookie could be written (and read back)
};

class VisitorIdentity {
public:
    static constexpr const char* kCidCookie = "_svc_cid";
    static constexpr const char* kSessionKey = "_svc_sid";
    static constexpr const char* kConfigKey = "_svc_cse_config";
    static constexpr long kCidMaxAgeSeconds = 730L * 24 * 60 * 60;

    // Reads or creates the ids and writes the cookie again (its 730 days start anew).
    static VisitorIds establish(BrowserStorage& storage);
    // Consent denied after it was granted (docs/adr/0083): the cookie (on the registrable domain and
    // host-only) and both storage items are removed.
    static void forget(BrowserStorage& storage);
    // The cookie assignment for `value`; domain "" means host-only.
    static std::string cidCookie(const std::string& value, const std::string& domain, bool secure);
    // The value of cookie `name` in a document.cookie string ("a=1; b=2"), the first one when repeated.
    static std::optional<std::string> cookieValue(std::string_view documentCookie, std::string_view name);
    // 32 lowercase hex digits (what the SDK writes; ids of another shape are replaced).
    static bool isValidId(const std::string& id);
};

}  // namespace svc
