#include "store/PgOperatorStore.hpp"

#include <algorithm>

namespace svc {

Result<OperatorAccount> PgOperatorStore::createOperator(const std::string& email, const std::string& passwordHash, int64_t now) {
    return database_.withConnection([&](PgConnection& connection) -> Result<OperatorAccount> {
        // DO NOTHING on the unique index of lower(email): a racing second account is refused too.
        auto inserted = connection.execute("create operator",
                                           "INSERT INTO operators(email, password_hash, created_at) VALUES ($1, $2, $3) "
                                           "ON CONFLICT DO NOTHING RETURNING id",
                                           {email, passwordHash, now});
        if (!inserted) return inserted.error();
        if (inserted->rows() == 0) return Error::alreadyExists("--email: an operator with e-mail address " + email + " exists");
        OperatorAccount account{inserted->integer(0, 0), email, passwordHash, 0, 0};
        account.createdAt = now;
        return account;
    });
}

Result<std::optional<OperatorAccount>> PgOperatorStore::findOperator(const std::string& email) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::optional<OperatorAccount>> {
        auto found = connection.execute("find operator by e-mail",
                                        "SELECT id, email, password_hash, failed_sign_ins, locked_until FROM operators "
                                        "WHERE lower(email) = lower($1::text COLLATE \"C\")",
                                        {email});
        if (!found) return found.error();
        if (found->rows() == 0) return std::optional<OperatorAccount>{};
        return std::optional<OperatorAccount>{
            OperatorAccount{found->integer(0, 0), found->text(0, 1), found->text(0, 2), found->integer(0, 3), found->integer(0, 4)}};
    });
}

Result<SignInReservation> PgOperatorStore::reserveSignIn(int64_t operatorId, int64_t now, int64_t maxAttempts, int64_t lockUntil) {
    return database_.withConnection([&](PgConnection& connection) -> Result<SignInReservation> {
        // One statement: the row lock makes concurrent attempts on any node count one after another.
        auto reserved = connection.execute(
            "reserve sign-in attempt",
            "UPDATE operators SET "
            "failed_sign_ins = CASE WHEN locked_until > $1 THEN failed_sign_ins WHEN failed_sign_ins + 1 > $2 THEN 0 "
            "ELSE failed_sign_ins + 1 END, "
            "locked_until = CASE WHEN locked_until > $1 THEN locked_until WHEN failed_sign_ins + 1 > $2 THEN $3 ELSE locked_until END "
            "WHERE id = $4 RETURNING failed_sign_ins, locked_until",
            {now, maxAttempts, lockUntil, operatorId});
        if (!reserved) return reserved.error();
        if (reserved->rows() == 0) return Error::notFound("operator " + std::to_string(operatorId) + " does not exist");
        SignInReservation reservation;
        reservation.lockedUntil = reserved->integer(0, 1);
        reservation.allowed = reservation.lockedUntil <= now;
        reservation.attempt = reserved->integer(0, 0);
        return reservation;
    });
}

Status PgOperatorStore::update(const char* purpose, const char* sql, std::initializer_list<PgParam> params) {
    return database_.withConnection([&](PgConnection& connection) -> Status {
        auto updated = connection.execute(purpose, sql, params);
        if (!updated) return updated.error();
        return Status::success();
    });
}

Status PgOperatorStore::releaseSignIn(int64_t operatorId) {
    return update("release sign-in attempt", "UPDATE operators SET failed_sign_ins = failed_sign_ins - 1 WHERE id = $1 AND failed_sign_ins > 0",
                  {operatorId});
}

Status PgOperatorStore::lockSignIn(int64_t operatorId, int64_t lockUntil) {
    return update("lock operator", "UPDATE operators SET failed_sign_ins = 0, locked_until = GREATEST(locked_until, $1) WHERE id = $2",
                  {lockUntil, operatorId});
}

Status PgOperatorStore::recordSignIn(int64_t operatorId, int64_t now) {
    return update("record sign-in", "UPDATE operators SET failed_sign_ins = 0, locked_until = 0, last_sign_in_at = $1 WHERE id = $2",
                  {now, operatorId});
}

Result<std::vector<OperatorAccount>> PgOperatorStore::listOperators() {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<OperatorAccount>> {
        auto found = connection.execute("list operators",
                                        "SELECT id, email, failed_sign_ins, locked_until, created_at, last_sign_in_at FROM operators "
                                        "ORDER BY created_at, id");
        if (!found) return found.error();
        std::vector<OperatorAccount> accounts;
        for (int row = 0; row < found->rows(); ++row) {
            OperatorAccount account;
            account.id = found->integer(row, 0);
            account.email = found->text(row, 1);
            account.failedSignIns = found->integer(row, 2);
            account.lockedUntil = found->integer(row, 3);
            account.createdAt = found->integer(row, 4);
            account.lastSignInAt = found->integer(row, 5);
            accounts.push_back(std::move(account));
        }
        return accounts;
    });
}

Result<std::optional<OperatorAccount>> PgOperatorStore::findOperatorById(int64_t operatorId) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::optional<OperatorAccount>> {
        auto found = connection.execute(
            "find operator by id",
            "SELECT id, email, password_hash, failed_sign_ins, locked_until, created_at, last_sign_in_at FROM operators WHERE id = $1",
            {operatorId});
        if (!found) return found.error();
        if (found->rows() == 0) return std::optional<OperatorAccount>{};
        return std::optional<OperatorAccount>{OperatorAccount{found->integer(0, 0), found->text(0, 1), found->text(0, 2), found->integer(0, 3),
                                                              found->integer(0, 4), found->integer(0, 5), found->integer(0, 6)}};
    });
}

Status PgOperatorStore::deleteOperator(int64_t operatorId) {
    return database_.withConnection([&](PgConnection& connection) -> Status {
        // The sessions go with the account through ON DELETE CASCADE, in the same statement.
        auto deleted = connection.execute("delete operator", "DELETE FROM operators WHERE id = $1", {operatorId});
        if (!deleted) return deleted.error();
        if (deleted->changedRows() == 0) return Error::notFound("operator " + std::to_string(operatorId) + " does not exist");
        return Status::success();
    });
}

Status PgOperatorStore::setPassword(int64_t operatorId, const std::string& passwordHash, const std::string& keepTokenHash) {
    return database_.withConnection([&](PgConnection& connection) -> Status {
        return connection.inTransaction("set operator password", [&]() -> Status {
            auto updated = connection.execute("set operator password",
                                              "UPDATE operators SET password_hash = $1, failed_sign_ins = 0, locked_until = 0 WHERE id = $2",
                                              {passwordHash, operatorId});
            if (!updated) return updated.error();
            if (updated->changedRows() == 0) return Error::notFound("operator " + std::to_string(operatorId) + " does not exist");
            auto ended = connection.execute("end operator's other sessions",
                                            "DELETE FROM operator_sessions WHERE operator_id = $1 AND token_hash <> $2", {operatorId, keepTokenHash});
            if (!ended) return ended.error();
            return Status::success();
        });
    });
}

Status PgOperatorStore::createSession(const OperatorSession& session) {
    return update("create operator session",
                  "INSERT INTO operator_sessions(token_hash, operator_id, csrf_token, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
                  {session.tokenHash, session.operatorId, session.csrfToken, session.createdAt, session.expiresAt});
}

Result<std::optional<OperatorSession>> PgOperatorStore::findSession(const std::string& tokenHash, int64_t now) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::optional<OperatorSession>> {
        auto found = connection.execute("find operator session",
                                        "SELECT s.operator_id, o.email, s.csrf_token, s.created_at, s.expires_at FROM operator_sessions s "
                                        "JOIN operators o ON o.id = s.operator_id WHERE s.token_hash = $1 AND s.expires_at > $2",
                                        {tokenHash, now});
        if (!found) return found.error();
        if (found->rows() == 0) return std::optional<OperatorSession>{};
        return std::optional<OperatorSession>{
            OperatorSession{tokenHash, found->integer(0, 0), found->text(0, 1), found->text(0, 2), found->integer(0, 3), found->integer(0, 4)}};
    });
}

Status PgOperatorStore::deleteSession(const std::string& tokenHash) {
    return update("delete operator session", "DELETE FROM operator_sessions WHERE token_hash = $1", {tokenHash});
}

Status PgOperatorStore::putSetPreview(const std::string& tokenHash, const SetPreviewDraft& draft, int64_t now, int64_t maxLive) {
    return database_.withConnection([&](PgConnection& connection) -> Status {
        return connection.inTransaction("put set preview", [&]() -> Status {
            if (auto expired = connection.execute("put set preview: drop expired", "DELETE FROM set_previews WHERE expires_at <= $1", {now});
                !expired) {
                return expired.error();
            }
            // Room for this one: the oldest live drafts beyond maxLive - 1 go.
            if (auto oldest = connection.execute("put set preview: evict the oldest",
                                                 "DELETE FROM set_previews WHERE token_hash IN "
                                                 "(SELECT token_hash FROM set_previews ORDER BY created_at DESC, token_hash OFFSET $1)",
                                                 {std::max<int64_t>(maxLive - 1, 0)});
                !oldest) {
                return oldest.error();
            }
            auto inserted = connection.execute(
                "put set preview",
                "INSERT INTO set_previews(token_hash, tenant_id, draft, created_at, expires_at) VALUES ($1, $2, $3, $4, $5) "
                "ON CONFLICT (token_hash) DO UPDATE SET tenant_id = excluded.tenant_id, draft = excluded.draft, "
                "created_at = excluded.created_at, expires_at = excluded.expires_at",
                {tokenHash, draft.tenantId, draft.draftJson, now, draft.expiresAt});
            if (!inserted) return inserted.error();
            return Status::success();
        });
    });
}

Result<std::optional<SetPreviewDraft>> PgOperatorStore::findSetPreview(const std::string& tokenHash, int64_t now) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::optional<SetPreviewDraft>> {
        auto found = connection.execute("find set preview", "SELECT tenant_id, draft, expires_at FROM set_previews WHERE token_hash = $1 AND expires_at > $2",
                                        {tokenHash, now});
        if (!found) return found.error();
        if (found->rows() == 0) return std::optional<SetPreviewDraft>{};
        return std::optional<SetPreviewDraft>{SetPreviewDraft{found->integer(0, 0), found->text(0, 1), found->integer(0, 2)}};
    });
}

Status PgOperatorStore::deleteExpiredSessions(int64_t now) {
    return update("delete expired operator sessions", "DELETE FROM operator_sessions WHERE expires_at <= $1", {now});
}

Status PgOperatorStore::deleteExpiredSetPreviews(int64_t now) {
    return update("delete expired set previews", "DELETE FROM set_previews WHERE expires_at <= $1", {now});
}

}  // namespace svc
