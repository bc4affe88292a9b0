#pragma once
// The visitor's consent to svc's cookie and storage (docs/adr/0083), as the shop's consent banner
// states it: window._svc_config.consent, _svc.consent(state), or the tenant's default.
#include <optional>
#include <string_view>

namespace svc {

enum class Consent {
    Pending,  // the banner has not been answered: nothing written, nothing attributed
    Granted,  // the cookie and storage as the spec has them
    Denied,   // nothing written (what svc wrote before is removed), nothing attributed
};

// "pending", "granted", "denied"; anything else is no consent state.
std::optional<Consent> parseConsent(std::string_view text);
const char* consentName(Consent consent);

}  // namespace svc
