#include "sdk/Consent.hpp"

namespace svc {

std::optional<Consent> parseConsent(std::string_view text) {
    if (text == "pending") return Consent::Pending;
    if (text == "granted") return Consent::Granted;
    if (text == "denied") return Consent::Denied;
    return std::nullopt;
}

const char* consentName(Consent consent) {
    switch (consent) {
        case Consent::Pending: return "pending";
        case Consent::Granted: return "granted";
        case Consent::Denied: return "denied";
    }
    return "pending";
}

}  // namespace svc
