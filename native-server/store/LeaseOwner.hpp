#pragma once
// Who holds a lease: this process, named by host, process id and a random token (so a reused
// process id is another owner). On its own host a node can tell that an owner has died without
// waiting for the lease to expire: a server restarted after kill -9 takes over the imports the
// dead process held at once, as the flock files it replaces did (docs/adr/0078).
#include <string>

namespace svc {

class LeaseOwner {
public:
    // The same for the whole life of the process.
    static const std::string& ofThisProcess();
    // True only when `owner` names a process on this host that no longer runs; false for
    // owners elsewhere (their leases end by expiry) and for text that names no owner.
    static bool gone(const std::string& owner);
};

}  // namespace svc
