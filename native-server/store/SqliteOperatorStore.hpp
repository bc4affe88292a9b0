#pragma once
// OperatorStore in the main database (migration 9; docs/adr/0039), on a connection of its own.
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "store/OperatorStore.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

class SqliteOperatorStore : public OperatorStore {
public:
    // `mainDatabasePath` must be migrated already (SqliteStorage::open does it).
    static Result<std::unique_ptr<SqliteOperatorStore>> open(const std::string& mainDatabasePath);

    // AlreadyExists when the e-mail address (case-insensitive) has an account.
    Result<OperatorAccount> createOperator(const std::string& email, const std::string& passwordHash, int64_t now) override;
    Result<std::optional<OperatorAccount>> findOperator(const std::string& email) override;
    // Counts one attempt in a single UPDATE, before the slow hash, so that N concurrent guesses
    // count N before any is verified (a read-modify-write after verifying let 60 guesses count 2).
    // Refused while locked; the attempt past `maxAttempts` locks the account until `lockUntil` and
    // is refused. The count is cleared by recordSignIn, and by a lock-out.
    Result<SignInReservation> reserveSignIn(int64_t operatorId, int64_t now, int64_t maxAttempts, int64_t lockUntil) override;
    // Gives back a reserved attempt that was never verified (the hash gate was busy).
    Status releaseSignIn(int64_t operatorId) override;
    // The last allowed attempt failed: locked until `lockUntil`, the count starts again after it.
    Status lockSignIn(int64_t operatorId, int64_t lockUntil) override;
    // A successful sign-in: no failures, no lock, and when (migration 13).
    Status recordSignIn(int64_t operatorId, int64_t now) override;
    // Every account, oldest first (the console's list; hashes are left empty).
    Result<std::vector<OperatorAccount>> listOperators() override;
    Result<std::optional<OperatorAccount>> findOperatorById(int64_t operatorId) override;
    // The account and all its sessions, in one transaction; NotFound when there is none.
    Status deleteOperator(int64_t operatorId) override;
    // A new password hash, the lock-out state cleared, and every session of the account ended
    // except `keepTokenHash` ("" ends all): whoever knew the old password is signed out.
    Status setPassword(int64_t operatorId, const std::string& passwordHash, const std::string& keepTokenHash) override;

    Status createSession(const OperatorSession& session) override;
    // The live session of `tokenHash` (expired ones are not found).
    Result<std::optional<OperatorSession>> findSession(const std::string& tokenHash, int64_t now) override;
    Status deleteSession(const std::string& tokenHash) override;
    Status deleteExpiredSessions(int64_t now) override;
    Status putSetPreview(const std::string& tokenHash, const SetPreviewDraft& draft, int64_t now, int64_t maxLive) override;
    Result<std::optional<SetPreviewDraft>> findSetPreview(const std::string& tokenHash, int64_t now) override;
    Status deleteExpiredSetPreviews(int64_t now) override;

private:
    explicit SqliteOperatorStore(std::unique_ptr<SqliteDatabase> db) : db_(std::move(db)) {}
    std::mutex mutex_;
    std::unique_ptr<SqliteDatabase> db_;
};

}  // namespace svc
