#pragma once
// Operator accounts and their console sessions (docs/adr/0039). Only hashes are stored:
// Argon2id for passwords, BLAKE2b for session tokens. Every method is safe to call from many
// threads and from several processes on the same storage (the CLI creates operators while a
// server signs them in).
//
// Contract (tests/store/OperatorStoreContractTest.cpp):
// - e-mail addresses are unique case-insensitively: a second account for "A@x" after "a@x" is
//   AlreadyExists naming the address; any bytes in an address or hash are stored as given.
// - an unknown e-mail, id or token hash is nullopt (find*) or NotFound (deleteOperator), never an error of another kind.
// - listOperators is oldest first (creation time, then id).
// - findSession finds only sessions whose expiresAt is after `now`.
// - findSetPreview finds only drafts whose expiresAt is after `now`; putSetPreview keeps at most
//   `maxLive` live drafts, the oldest going first, and drops expired ones.
// - deleteExpiredSessions and deleteExpiredSetPreviews remove the rows whose expiresAt <= `now`
//   (the cluster's leader sweeps both; docs/adr/0092), and only those.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.hpp"

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

// A draft custom set an operator previews before saving it (docs/adr/0091): kept in storage, not
// in one server's memory, so that a preview URL made through one node opens on any node.
struct SetPreviewDraft {
    int64_t tenantId = 0;
    std::string draftJson;  // the draft as sets/SetJson writes a custom set
    int64_t expiresAt = 0;  // unix seconds
};

class OperatorStore {
public:
    virtual ~OperatorStore() = default;

    // AlreadyExists when the e-mail address (case-insensitive) has an account.
    virtual Result<OperatorAccount> createOperator(const std::string& email, const std::string& passwordHash, int64_t now) = 0;
    virtual Result<std::optional<OperatorAccount>> findOperator(const std::string& email) = 0;
    // Counts one attempt atomically, before the slow hash, so that N concurrent guesses count N
    // before any is verified (a read-modify-write after verifying let 60 guesses count 2).
    // Refused while locked; the attempt past `maxAttempts` locks the account until `lockUntil` and
    // is refused. The count is cleared by recordSignIn, and by a lock-out.
    virtual Result<SignInReservation> reserveSignIn(int64_t operatorId, int64_t now, int64_t maxAttempts, int64_t lockUntil) = 0;
    // Gives back a reserved attempt that was never verified (the hash gate was busy).
    virtual Status releaseSignIn(int64_t operatorId) = 0;
    // The last allowed attempt failed: locked until `lockUntil`, the count starts again after it.
    virtual Status lockSignIn(int64_t operatorId, int64_t lockUntil) = 0;
    // A successful sign-in: no failures, no lock, and when.
    virtual Status recordSignIn(int64_t operatorId, int64_t now) = 0;
    // Every account, oldest first (the console's list; hashes are left empty).
    virtual Result<std::vector<OperatorAccount>> listOperators() = 0;
    virtual Result<std::optional<OperatorAccount>> findOperatorById(int64_t operatorId) = 0;
    // The account and all its sessions, atomically; NotFound when there is none.
    virtual Status deleteOperator(int64_t operatorId) = 0;
    // A new password hash, the lock-out state cleared, and every session of the account ended
    // except `keepTokenHash` ("" ends all): whoever knew the old password is signed out.
    virtual Status setPassword(int64_t operatorId, const std::string& passwordHash, const std::string& keepTokenHash) = 0;

    virtual Status createSession(const OperatorSession& session) = 0;
    // The live session of `tokenHash` (expired ones are not found).
    virtual Result<std::optional<OperatorSession>> findSession(const std::string& tokenHash, int64_t now) = 0;
    virtual Status deleteSession(const std::string& tokenHash) = 0;
    virtual Status deleteExpiredSessions(int64_t now) = 0;
    // Keeps a draft under its token's hash (a flood of drafts evicts the oldest, never grows).
    virtual Status putSetPreview(const std::string& tokenHash, const SetPreviewDraft& draft, int64_t now, int64_t maxLive) = 0;
    virtual Result<std::optional<SetPreviewDraft>> findSetPreview(const std::string& tokenHash, int64_t now) = 0;
    virtual Status deleteExpiredSetPreviews(int64_t now) = 0;
};

}  // namespace svc
