#include "store/SqliteOperatorStore.hpp"

#include <algorithm>

namespace svc {

Result<std::unique_ptr<SqliteOperatorStore>> SqliteOperatorStore::open(const std::string& mainDatabasePath) {
    auto db = SqliteDatabase::open(mainDatabasePath);
    if (!db) return db.error();
    return std::unique_ptr<SqliteOperatorStore>(new SqliteOperatorStore(std::move(*db)));
}

Result<OperatorAccount> SqliteOperatorStore::createOperator(const std::string& email, const std::string& passwordHash, int64_t now) {
    std::lock_guard lock(mutex_);
    auto existing = db_->prepare("SELECT 1 FROM operators WHERE email = ?");
    if (!existing) return existing.error();
    existing->bind(1, email);
    auto found = existing->step();
    if (!found) return found.error();
    if (*found) return Error::alreadyExists("--email: an operator with e-mail address " + email + " exists");
    auto insert = db_->prepare("INSERT INTO operators(email, password_hash, created_at) VALUES (?, ?, ?)");
    if (!insert) return insert.error();
    insert->bind(1, email).bind(2, passwordHash).bind(3, now);
    if (auto status = insert->run(); !status) return status.error();
    return OperatorAccount{db_->lastInsertRowId(), email, passwordHash, 0, 0};
}

Result<std::optional<OperatorAccount>> SqliteOperatorStore::findOperator(const std::string& email) {
    std::lock_guard lock(mutex_);
    auto query = db_->prepare("SELECT id, email, password_hash, failed_sign_ins, locked_until FROM operators WHERE email = ?");
    if (!query) return query.error();
    query->bind(1, email);
    auto row = query->step();
    if (!row) return row.error();
    if (!*row) return std::optional<OperatorAccount>{};
    return std::optional<OperatorAccount>{OperatorAccount{query->integer(0), query->text(1), query->text(2), query->integer(3), query->integer(4)}};
}

Result<SignInReservation> SqliteOperatorStore::reserveSignIn(int64_t operatorId, int64_t now, int64_t maxAttempts, int64_t lockUntil) {
    std::lock_guard lock(mutex_);
    // One statement: atomic against this process's other threads and against other processes.
    auto statement = db_->prepare(
        "UPDATE operators SET "
        "failed_sign_ins = CASE WHEN locked_until > ?1 THEN failed_sign_ins WHEN failed_sign_ins + 1 > ?2 THEN 0 "
        "ELSE failed_sign_ins + 1 END, "
        "locked_until = CASE WHEN locked_until > ?1 THEN locked_until WHEN failed_sign_ins + 1 > ?2 THEN ?3 ELSE locked_until END "
        "WHERE id = ?4 RETURNING failed_sign_ins, locked_until");
    if (!statement) return statement.error();
    statement->bind(1, now).bind(2, maxAttempts).bind(3, lockUntil).bind(4, operatorId);
    auto row = statement->step();
    if (!row) return row.error();
    if (!*row) return Error::notFound("operator " + std::to_string(operatorId) + " does not exist");
    SignInReservation reservation;
    reservation.lockedUntil = statement->integer(1);
    reservation.allowed = reservation.lockedUntil <= now;
    reservation.attempt = statement->integer(0);
    return reservation;
}

Status SqliteOperatorStore::releaseSignIn(int64_t operatorId) {
    std::lock_guard lock(mutex_);
    auto statement = db_->prepare("UPDATE operators SET failed_sign_ins = failed_sign_ins - 1 WHERE id = ? AND failed_sign_ins > 0");
    if (!statement) return statement.error();
    statement->bind(1, operatorId);
    return statement->run();
}

Status SqliteOperatorStore::lockSignIn(int64_t operatorId, int64_t lockUntil) {
    std::lock_guard lock(mutex_);
    auto statement = db_->prepare("UPDATE operators SET failed_sign_ins = 0, locked_until = MAX(locked_until, ?) WHERE id = ?");
    if (!statement) return statement.error();
    statement->bind(1, lockUntil).bind(2, operatorId);
    return statement->run();
}

Status SqliteOperatorStore::createSession(const OperatorSession& session) {
    std::lock_guard lock(mutex_);
    auto insert = db_->prepare(
        "INSERT INTO operator_sessions(token_hash, operator_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?)");
    if (!insert) return insert.error();
    insert->bind(1, session.tokenHash).bind(2, session.operatorId).bind(3, session.csrfToken);
    insert->bind(4, session.createdAt).bind(5, session.expiresAt);
    return insert->run();
}

Result<std::optional<OperatorSession>> SqliteOperatorStore::findSession(const std::string& tokenHash, int64_t now) {
    std::lock_guard lock(mutex_);
    auto query = db_->prepare(
        "SELECT s.operator_id, o.email, s.csrf_token, s.created_at, s.expires_at FROM operator_sessions s "
        "JOIN operators o ON o.id = s.operator_id WHERE s.token_hash = ? AND s.expires_at > ?");
    if (!query) return query.error();
    query->bind(1, tokenHash).bind(2, now);
    auto row = query->step();
    if (!row) return row.error();
    if (!*row) return std::optional<OperatorSession>{};
    return std::optional<OperatorSession>{
        OperatorSession{tokenHash, query->integer(0), query->text(1), query->text(2), query->integer(3), query->integer(4)}};
}

Status SqliteOperatorStore::deleteSession(const std::string& tokenHash) {
    std::lock_guard lock(mutex_);
    auto statement = db_->prepare("DELETE FROM operator_sessions WHERE token_hash = ?");
    if (!statement) return statement.error();
    statement->bind(1, tokenHash);
    return statement->run();
}

Status SqliteOperatorStore::putSetPreview(const std::string& tokenHash, const SetPreviewDraft& draft, int64_t now, int64_t maxLive) {
    std::lock_guard lock(mutex_);
    auto transaction = SqliteTransaction::begin(*db_);
    if (!transaction) return transaction.error();
    {
        auto expired = db_->prepare("DELETE FROM set_previews WHERE expires_at <= ?");
        if (!expired) return expired.error();
        expired->bind(1, now);
        if (auto status = expired->run(); !status) return status;
        // Room for this one: the oldest live drafts beyond maxLive - 1 go.
        auto oldest = db_->prepare(
            "DELETE FROM set_previews WHERE token_hash IN "
            "(SELECT token_hash FROM set_previews ORDER BY created_at DESC, token_hash LIMIT -1 OFFSET ?)");
        if (!oldest) return oldest.error();
        oldest->bind(1, std::max<int64_t>(maxLive - 1, 0));
        if (auto status = oldest->run(); !status) return status;
        auto insert = db_->prepare("INSERT OR REPLACE INTO set_previews(token_hash, tenant_id, draft, created_at, expires_at) VALUES (?, ?, ?, ?, ?)");
        if (!insert) return insert.error();
        insert->bind(1, tokenHash).bind(2, draft.tenantId).bind(3, draft.draftJson).bind(4, now).bind(5, draft.expiresAt);
        if (auto status = insert->run(); !status) return status;
    }
    return transaction->commit();
}

Result<std::optional<SetPreviewDraft>> SqliteOperatorStore::findSetPreview(const std::string& tokenHash, int64_t now) {
    std::lock_guard lock(mutex_);
    auto query = db_->prepare("SELECT tenant_id, draft, expires_at FROM set_previews WHERE token_hash = ? AND expires_at > ?");
    if (!query) return query.error();
    query->bind(1, tokenHash).bind(2, now);
    auto row = query->step();
    if (!row) return row.error();
    if (!*row) return std::optional<SetPreviewDraft>{};
    return std::optional<SetPreviewDraft>{SetPreviewDraft{query->integer(0), query->text(1), query->integer(2)}};
}

Status SqliteOperatorStore::deleteExpiredSessions(int64_t now) {
    std::lock_guard lock(mutex_);
    auto statement = db_->prepare("DELETE FROM operator_sessions WHERE expires_at <= ?");
    if (!statement) return statement.error();
    statement->bind(1, now);
    return statement->run();
}

Status SqliteOperatorStore::deleteExpiredSetPreviews(int64_t now) {
    std::lock_guard lock(mutex_);
    auto statement = db_->prepare("DELETE FROM set_previews WHERE expires_at <= ?");
    if (!statement) return statement.error();
    statement->bind(1, now);
    return statement->run();
}

Status SqliteOperatorStore::recordSignIn(int64_t operatorId, int64_t now) {
    std::lock_guard lock(mutex_);
    auto statement = db_->prepare("UPDATE operators SET failed_sign_ins = 0, locked_until = 0, last_sign_in_at = ? WHERE id = ?");
    if (!statement) return statement.error();
    statement->bind(1, now).bind(2, operatorId);
    return statement->run();
}

Result<std::vector<OperatorAccount>> SqliteOperatorStore::listOperators() {
    std::lock_guard lock(mutex_);
    auto query = db_->prepare(
        "SELECT id, email, failed_sign_ins, locked_until, created_at, last_sign_in_at FROM operators ORDER BY created_at, id");
    if (!query) return query.error();
    std::vector<OperatorAccount> accounts;
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        OperatorAccount account;
        account.id = query->integer(0);
        account.email = query->text(1);
        account.failedSignIns = query->integer(2);
        account.lockedUntil = query->integer(3);
        account.createdAt = query->integer(4);
        account.lastSignInAt = query->integer(5);
        accounts.push_back(std::move(account));
    }
    return accounts;
}

Result<std::optional<OperatorAccount>> SqliteOperatorStore::findOperatorById(int64_t operatorId) {
    std::lock_guard lock(mutex_);
    auto query = db_->prepare(
        "SELECT id, email, password_hash, failed_sign_ins, locked_until, created_at, last_sign_in_at FROM operators WHERE id = ?");
    if (!query) return query.error();
    query->bind(1, operatorId);
    auto row = query->step();
    if (!row) return row.error();
    if (!*row) return std::optional<OperatorAccount>{};
    return std::optional<OperatorAccount>{OperatorAccount{query->integer(0), query->text(1), query->text(2), query->integer(3),
                                                          query->integer(4), query->integer(5), query->integer(6)}};
}

Status SqliteOperatorStore::deleteOperator(int64_t operatorId) {
    std::lock_guard lock(mutex_);
    auto transaction = SqliteTransaction::begin(*db_);
    if (!transaction) return transaction.error();
    // Sessions first and explicitly: the schema's ON DELETE CASCADE needs foreign_keys on.
    auto sessions = db_->prepare("DELETE FROM operator_sessions WHERE operator_id = ?");
    if (!sessions) return sessions.error();
    sessions->bind(1, operatorId);
    if (auto status = sessions->run(); !status) return status;
    auto account = db_->prepare("DELETE FROM operators WHERE id = ?");
    if (!account) return account.error();
    account->bind(1, operatorId);
    if (auto status = account->run(); !status) return status;
    if (db_->changes() == 0) return Error::notFound("operator " + std::to_string(operatorId) + " does not exist");
    return transaction->commit();
}

Status SqliteOperatorStore::setPassword(int64_t operatorId, const std::string& passwordHash, const std::string& keepTokenHash) {
    std::lock_guard lock(mutex_);
    auto transaction = SqliteTransaction::begin(*db_);
    if (!transaction) return transaction.error();
    auto update = db_->prepare("UPDATE operators SET password_hash = ?, failed_sign_ins = 0, locked_until = 0 WHERE id = ?");
    if (!update) return update.error();
    update->bind(1, passwordHash).bind(2, operatorId);
    if (auto status = update->run(); !status) return status;
    if (db_->changes() == 0) return Error::notFound("operator " + std::to_string(operatorId) + " does not exist");
    auto sessions = db_->prepare("DELETE FROM operator_sessions WHERE operator_id = ? AND token_hash <> ?");
    if (!sessions) return sessions.error();
    sessions->bind(1, operatorId).bind(2, keepTokenHash);
    if (auto status = sessions->run(); !status) return status;
    return transaction->commit();
}

}  // namespace svc
