#pragma once
// Named leases: work that must run on one node at a time (a background worker, an import) is
// claimed here by an owner until an expiry, renewed while it runs and released when done
// (docs/adr/0078). A lease whose owner died is taken over by another owner once it expires.
//
// Contract (tests/store/LeaseStoreContractTest.cpp):
// - claim succeeds when nobody holds the name, when the holder's lease has expired (expiresAt <=
//   now), or when `owner` already holds it (then it is renewed); otherwise it returns false and
//   changes nothing. Of two owners claiming at once, exactly one gets it.
// - renew extends only the owner's live lease; false once it expired or another owner took it.
// - release ends only the owner's own lease (another owner's is left alone); releasing a lease
//   not held is not an error.
// - holder names the live lease's owner, nullopt when there is none; names are compared byte for byte.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.hpp"

namespace svc {

struct Lease {
    std::string name;
    std::string owner;
    int64_t expiresAt = 0;
};

class LeaseStore {
public:
    virtual ~LeaseStore() = default;

    // True when `owner` holds `name` until now + ttlSeconds from this call on.
    virtual Result<bool> claim(const std::string& name, const std::string& owner, int64_t now, int64_t ttlSeconds) = 0;
    virtual Result<bool> renew(const std::string& name, const std::string& owner, int64_t now, int64_t ttlSeconds) = 0;
    virtual Status release(const std::string& name, const std::string& owner) = 0;
    virtual Result<std::optional<Lease>> holder(const std::string& name, int64_t now) = 0;
    // The live leases whose names start with `prefix`, by name (e.g. every running import's).
    virtual Result<std::vector<Lease>> live(const std::string& prefix, int64_t now) = 0;
};

}  // namespace svc
