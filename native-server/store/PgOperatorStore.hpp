#pragma once
// OperatorStore on PostgreSQL (docs/adr/0086): accounts and console sessions shared by every
// node, so an operator signed out on one node is signed out on all, and sign-in attempts count
// across nodes (one UPDATE each; the row lock orders concurrent ones).
#include "store/OperatorStore.hpp"
#include "store/PgDatabase.hpp"

namespace svc {

class PgOperatorStore : public OperatorStore {
public:
    explicit PgOperatorStore(PgDatabase& database) : database_(database) {}

    Result<OperatorAccount> createOperator(const std::string& email, const std::string& passwordHash, int64_t now) override;
    Result<std::optional<OperatorAccount>> findOperator(const std::string& email) override;
    Result<SignInReservation> reserveSignIn(int64_t operatorId, int64_t now, int64_t maxAttempts, int64_t lockUntil) override;
    Status releaseSignIn(int64_t operatorId) override;
    Status lockSignIn(int64_t operatorId, int64_t lockUntil) override;
    Status recordSignIn(int64_t operatorId, int64_t now) override;
    Result<std::vector<OperatorAccount>> listOperators() override;
    Result<std::optional<OperatorAccount>> findOperatorById(int64_t operatorId) override;
    Status deleteOperator(int64_t operatorId) override;
    Status setPassword(int64_t operatorId, const std::string& passwordHash, const std::string& keepTokenHash) override;

    Status createSession(const OperatorSession& session) override;
    Result<std::optional<OperatorSession>> findSession(const std::string& tokenHash, int64_t now) override;
    Status deleteSession(const std::string& tokenHash) override;
    Status deleteExpiredSessions(int64_t now) override;
    Status putSetPreview(const std::string& tokenHash, const SetPreviewDraft& draft, int64_t now, int64_t maxLive) override;
    Result<std::optional<SetPreviewDraft>> findSetPreview(const std::string& tokenHash, int64_t now) override;
    Status deleteExpiredSetPreviews(int64_t now) override;

private:
    Status update(const char* purpose, const char* sql, std::initializer_list<PgParam> params);

    PgDatabase& database_;
};

}  // namespace svc
