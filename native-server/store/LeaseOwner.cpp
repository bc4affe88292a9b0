#include "store/LeaseOwner.hpp"

#include <sodium.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <climits>

#include "text/StringUtil.hpp"

namespace svc {
namespace {

std::string hostName() {
    char name[HOST_NAME_MAX + 1] = {};
    if (::gethostname(name, sizeof name - 1) != 0) return "unknown-host";
    return name;
}

}  // namespace

const std::string& LeaseOwner::ofThisProcess() {
    static const std::string owner = [] {
        (void)sodium_init();  // idempotent; randombytes needs it
        unsigned char token[8];
        randombytes_buf(token, sizeof token);
        std::string hex;
        for (unsigned char byte : token) {
            constexpr char digits[] = "0123456789abcdef";
            hex += digits[byte >> 4];
            hex += digits[byte & 15];
        }
        return hostName() + "/" + std::to_string(::getpid()) + "/" + hex;
    }();
    return owner;
}

bool LeaseOwner::gone(const std::string& owner) {
    size_t first = owner.find('/');
    size_t second = first == std::string::npos ? std::string::npos : owner.find('/', first + 1);
    if (second == std::string::npos || owner.substr(0, first) != hostName()) return false;
    auto pid = parseInt64(owner.substr(first + 1, second - first - 1));
    if (!pid || *pid <= 0 || *pid > INT_MAX) return false;
    if (*pid == ::getpid()) return owner != ofThisProcess();  // an earlier process that had our id
    return ::kill(static_cast<pid_t>(*pid), 0) != 0 && errno == ESRCH;
}

}  // namespace svc
