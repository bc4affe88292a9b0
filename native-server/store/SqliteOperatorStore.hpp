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
    // Records the account's lock-out state after a sign-in attempt.
    Status setSignInState(int64_t operatorId, int64_t failedSignIns, int64_t lockedUntil);
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
