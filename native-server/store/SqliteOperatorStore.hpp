#pragma once
// Operator accounts and sessions in the main database (migration 9; docs/adr/0039). Its own
// connection, like the widget settings: the CLI creates operators while a server reads them.
// Only hashes are stored: Argon2id for passwords, BLAKE2b for session tokens.
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

struct OperatorAccount {
    int64_t id = 0;
    std::string email;
    std::string passwordHash;
    int64_t failedSignIns = 0;  // since the last successful sign-in or lock-out
    int64_t lockedUntil = 0;    // unix seconds; 0: not locked
    int64_t createdAt = 0;      // filled in by listOperators
    int64_t lastSignInAt = 0;   // filled in by listOperators; 0: never signed in
};

// One sign-in attempt reserved before its password is verified (docs/adr/0059).
struct SignInReservation {
    bool allowed = false;     // false: the account is locked, verify nothing
    int64_t attempt = 0;      // this attempt's place since the last success or lock-out (1-based)
    int64_t lockedUntil = 0;  // when refused: until when
};

struct OperatorSession {
    std::string tokenHash;
    int64_t operatorId = 0;
    std::string email;      // filled in by findSession
    std::string csrfToken;  // sent back in X-CSRF-Token with every state-changing request
    int64_t createdAt = 0;
    int64_t expiresAt = 0;
};

class SqliteOperatorStore {
public:
    // `mainDatabasePath` must be migrated already (SqliteStorage::open does it).
    static Result<std::unique_ptr<SqliteOperatorStore>> open(const std::string& mainDatabasePath);

    // AlreadyExists when the e-mail address (case-insensitive) has an account.
    Result<OperatorAccount> createOperator(const std::string& email, const std::string& passwordHash, int64_t now);
    Result<std::optional<OperatorAccount>> findOperator(const std::string& email);
    // Counts one attempt in a single UPDATE, before the slow hash, so that N concurrent guesses
    // count N before any is verified (a read-modify-write after verifying let 60 guesses count 2).
    // Refused while locked; the attempt past `maxAttempts` locks the account until `lockUntil` and
    // is refused. The count is cleared by recordSignIn, and by a lock-out.
    Result<SignInReservation> reserveSignIn(int64_t operatorId, int64_t now, int64_t maxAttempts, int64_t lockUntil);
    // Gives back a reserved attempt that was never verified (the hash gate was busy).
    Status releaseSignIn(int64_t operatorId);
    // The last allowed attempt failed: locked until `lockUntil`, the count starts again after it.
    Status lockSignIn(int64_t operatorId, int64_t lockUntil);
    // A successful sign-in: no failures, no lock, and when (migration 13).
    Status recordSignIn(int64_t operatorId, int64_t now);
    // Every account, oldest first (the console's list; hashes are left empty).
    Result<std::vector<OperatorAccount>> listOperators();
    Result<std::optional<OperatorAccount>> findOperatorById(int64_t operatorId);
    // The account and all its sessions, in one transaction; NotFound when there is none.
    Status deleteOperator(int64_t operatorId);
    // A new password hash, the lock-out state cleared, and every session of the account ended
    // except `keepTokenHash` ("" ends all): whoever knew the old password is signed out.
    Status setPassword(int64_t operatorId, const std::string& passwordHash, const std::string& keepTokenHash);

    Status createSession(const OperatorSession& session);
    // The live session of `tokenHash` (expired ones are not found).
    Result<std::optional<OperatorSession>> findSession(const std::string& tokenHash, int64_t now);
    Status deleteSession(const std::string& tokenHash);
    Status deleteExpiredSessions(int64_t now);

private:
    explicit SqliteOperatorStore(std::unique_ptr<SqliteDatabase> db) : db_(std::move(db)) {}
    std::mutex mutex_;
    std::unique_ptr<SqliteDatabase> db_;
};

}  // namespace svc
