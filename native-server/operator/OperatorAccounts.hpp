#pragma once
// Operator sign-in (docs/adr/0039): Argon2id passwords, sessions as random tokens stored
// hashed, and lock-out of guessing: 5 failed sign-ins lock the account for 15 minutes; one
// client address may fail 20 times, and then once more for every 45 s that pass (a token
// bucket of 20 refilled over 15 minutes, kept in the RateLimitStore so that it holds over every
// node of a cluster; docs/adr/0094). A locked account refuses even the right password until the
// time is up, and says so.
// Under concurrency (docs/adr/0059): every attempt is counted before its slow hash, in the
// operator store for the account and in the rate-limit store for the address, and the hashes
// themselves pass a PasswordHashGate.
#include <memory>
#include <string>
#include <vector>

#include "core/Clock.hpp"
#include "core/Result.hpp"
#include "security/PasswordHashGate.hpp"
#include "security/PasswordHasher.hpp"
#include "store/OperatorStore.hpp"
#include "store/RateLimitStore.hpp"

namespace svc {

struct SignedIn {
    std::string token;  // the cookie's value; only its hash is stored
    OperatorSession session;
};

class OperatorAccounts {
public:
    static constexpr int kMaxFailures = 5;
    static constexpr int64_t kLockSeconds = 15 * 60;
    static constexpr int kMaxFailuresPerAddress = 20;
    static constexpr int64_t kSessionSeconds = 8 * 60 * 60;

    OperatorAccounts(OperatorStore& store, RateLimitStore& addressLimits, const Clock& clock, PasswordCost cost,
                     PasswordHashLimits hashLimits = {});

    // Errors name the field: "email: ...", "password: ...".
    Result<OperatorAccount> createOperator(const std::string& email, const std::string& password);
    // Unauthenticated for a wrong e-mail address or password (never saying which);
    // RateLimited (retry after the lock) while the account or the client address is locked;
    // Unavailable with a retry-after of 1 s (nothing counted) when the hash gate turned the attempt away.
    Result<SignedIn> signIn(const std::string& email, const std::string& password, const std::string& clientAddress);
    // The live session of a cookie's token; Unauthenticated when there is none.
    Result<OperatorSession> authenticate(const std::string& token);
    Status signOut(const std::string& token);

    static Status validEmail(const std::string& email, const std::string& field);
    const PasswordHashGate& hashGate() const { return gate_; }

    // Account management (the console's Operators page, docs/adr/0050).
    Result<std::vector<OperatorAccount>> listOperators();
    // Removes `operatorId` and ends its sessions at once. PermissionDenied for the caller's own
    // account ("operatorId: ..."): the last operator cannot lock everyone out by accident.
    Status removeOperator(int64_t operatorId, const std::string& callerEmail);
    // The signed-in operator's own password. A wrong current password counts as a failed
    // sign-in (same lock-out); the other sessions of the account end, `keepToken`'s stays.
    // Errors name the field: "currentPassword: ...", "newPassword: ...".
    Status changePassword(const std::string& email, const std::string& currentPassword, const std::string& newPassword,
                          const std::string& keepToken, const std::string& clientAddress);
    // The CLI's reset (`svc-server operator password`): no current password, every session ends.
    Status resetPassword(const std::string& email, const std::string& newPassword);

private:
    // An attempt of one client address, counted before it is verified.
    struct AddressAttempt {
        bool allowed = false;      // false: the address is locked, nothing was counted
        int64_t lockedUntil = 0;   // when refused: until the address may try again
        bool last = false;         // it took the address's last attempt: a wrong password locks the address
    };

    Error lockedError(int64_t until, int64_t retryAfterSeconds = kLockSeconds) const;
    // The account's reserved attempt, verified under the gate. Unavailable (busy) gives it back.
    Result<bool> verifyReserved(const OperatorAccount& account, const std::string& password, const std::string& clientAddress,
                                const AddressAttempt& addressAttempt);
    Result<std::string> hashNew(const std::string& password);
    Result<AddressAttempt> reserveAddressAttempt(const std::string& clientAddress);
    // A success, or an attempt never verified, is not a guess.
    void releaseAddressAttempt(const std::string& clientAddress);

    OperatorStore* store_;
    RateLimitStore* addressLimits_;
    const Clock& clock_;
    PasswordHasher hasher_;
    PasswordHashGate gate_;
    std::string unknownAccountHash_;  // verified against for unknown e-mail addresses: same time as a known one
};

}  // namespace svc
