#pragma once
#include <cstdint>
#include <string>

namespace svc {

// A shop using svc. The API secret itself is never stored: only its hash.
struct Tenant {
    int64_t id = 0;
    std::string apiId;       // random UUID, public (it is in the loader URL)
    std::string name;
    std::string feedId;      // random UUID naming the tenant's default feed
    std::string secretHash;  // see native-server/tenant/SecretHasher
    std::string currency = "EUR";
    std::string locale = "de-DE";
    double maxDeleteShare = 0.5;  // a full feed deleting more of the catalog is held for confirmation
    // The commission contract (docs/adr/0021).
    int64_t attributionWindowDays = 30;
    std::string commissionRates = "0";  // basis points, "default[,WIDGET=bp...]" (tracking/CommissionRates)
    // Set by the operator (console or API): every tenant-facing endpoint refuses the tenant,
    // its data stays (docs/adr/0041).
    bool disabled = false;
};

}  // namespace svc
