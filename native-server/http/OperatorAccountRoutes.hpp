#pragma once
// The console's Operators page (docs/adr/0050): list the operator accounts, add one, remove
// another (its sessions end at once), and change one's own password (the current one
// required and counted against the lock-out; the account's other sessions end).
#include <httplib.h>

#include "http/OperatorAuth.hpp"

namespace svc {

class OperatorAccountRoutes {
public:
    explicit OperatorAccountRoutes(OperatorAuth& auth) : auth_(auth) {}
    void registerOn(httplib::Server& server);

private:
    void list(const httplib::Request& request, httplib::Response& response);
    void add(const httplib::Request& request, httplib::Response& response);
    void remove(const httplib::Request& request, httplib::Response& response);
    void changePassword(const httplib::Request& request, httplib::Response& response);

    OperatorAuth& auth_;
};

}  // namespace svc
