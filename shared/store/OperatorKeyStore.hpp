#pragma once
// Keys of the service's operators (who run many shops): they authenticate the
// operator's HTTP endpoints (content-pool templates, later the console). Only hashes
// are stored; a key is shown once, when created.
#include <string>
#include <vector>

#include "core/Result.hpp"

namespace svc {

struct OperatorKey {
    std::string name;
    std::string keyHash;
};

class OperatorKeyStore {
public:
    virtual ~OperatorKeyStore() = default;
    // AlreadyExists when the name is taken.
    virtual Status addOperatorKey(const OperatorKey& key) = 0;
    virtual Result<std::vector<OperatorKey>> operatorKeys() = 0;
    // False when there was no key of that name.
    virtual Result<bool> removeOperatorKey(const std::string& name) = 0;
};

}  // namespace svc
