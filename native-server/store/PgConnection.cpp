#include "store/PgConnection.hpp"

#include <cstring>
#include <vector>

namespace svc {
namespace {

// libpq's messages end in a newline and may go on with DETAIL lines (which quote key values):
// the first line says what went wrong.
std::string firstLine(const char* message) {
    std::string text = message ? message : "";
    if (auto end = text.find('\n'); end != std::string::npos) text.resize(end);
    return text.empty() ? "no message from the server" : text;
}

// libpq's connect errors name host and port, but a malformed URL's error may quote a piece of it
// (a password, say): such errors are replaced, and a parsed password is masked wherever it appears.
std::string withoutSecrets(std::string message, const std::string& url) {
    PQconninfoOption* options = PQconninfoParse(url.c_str(), nullptr);
    if (options == nullptr) return "the connection URL is malformed (it is not repeated here: it may hold a password)";
    for (PQconninfoOption* option = options; option->keyword != nullptr; ++option) {
        if (std::strcmp(option->keyword, "password") != 0 || option->val == nullptr || *option->val == '\0') continue;
        const std::string password = option->val;
        for (auto at = message.find(password); at != std::string::npos; at = message.find(password, at + 3)) message.replace(at, password.size(), "***");
    }
    PQconninfoFree(options);
    return message;
}

}  // namespace

Result<std::unique_ptr<PgConnection>> PgConnection::open(const std::string& url) {
    const char* keywords[] = {"dbname", "fallback_application_name", "client_encoding", nullptr};
    const char* values[] = {url.c_str(), "svc", "UTF8", nullptr};
    PGconn* connection = PQconnectdbParams(keywords, values, 1);
    if (connection == nullptr) return Error::unavailable("postgres: connect: out of memory");
    if (PQstatus(connection) != CONNECTION_OK) {
        // PQerrorMessage names host and port, never the password.
        Error error = Error::unavailable("postgres: connect: " + withoutSecrets(firstLine(PQerrorMessage(connection)), url));
        PQfinish(connection);
        return error;
    }
    // Server notices (NOTICE: drop cascades to ...) are not errors; libpq would print them on stderr.
    PQsetNoticeProcessor(connection, [](void*, const char*) {}, nullptr);
    return std::unique_ptr<PgConnection>(new PgConnection(connection));
}

PgConnection::~PgConnection() { PQfinish(connection_); }

Error PgConnection::errorOf(std::string_view purpose, const PGresult* result) const {
    const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
    std::string message = "postgres: " + std::string(purpose) + ": " +
                          firstLine(result && *PQresultErrorMessage(result) ? PQresultErrorMessage(result) : PQerrorMessage(connection_));
    std::string_view code = state ? state : "";
    if (code == "23505") return Error::alreadyExists(std::move(message));
    // Connection lost, server shutting down or out of resources, a deadlock or serialization
    // failure: worth trying again later, so Unavailable (HTTP 503), not a bug.
    if (PQstatus(connection_) != CONNECTION_OK || code.rfind("08", 0) == 0 || code.rfind("57P", 0) == 0 || code.rfind("53", 0) == 0 ||
        code.rfind("40", 0) == 0) {
        return Error::unavailable(std::move(message));
    }
    return Error::internal(std::move(message));
}

Result<PgResult> PgConnection::execute(std::string_view purpose, const char* sql, std::initializer_list<PgParam> params) {
    return run(purpose, sql, params.begin(), params.size());
}

Result<PgResult> PgConnection::execute(std::string_view purpose, const std::string& sql, const std::vector<PgParam>& params) {
    return run(purpose, sql.c_str(), params.data(), params.size());
}

Result<PgResult> PgConnection::run(std::string_view purpose, const char* sql, const PgParam* params, size_t count) {
    std::vector<const char*> values;
    std::vector<int> lengths;
    values.reserve(count);
    lengths.reserve(count);
    for (size_t i = 0; i < count; ++i) {
        values.push_back(params[i].isNull() ? nullptr : params[i].text().c_str());
        lengths.push_back(static_cast<int>(params[i].text().size()));
    }
    PgResult result(PQexecParams(connection_, sql, static_cast<int>(count), nullptr, values.data(), lengths.data(), nullptr, 0));
    auto status = PQresultStatus(result.handle());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) return errorOf(purpose, result.handle());
    return result;
}

Status PgConnection::executeScript(std::string_view purpose, const char* sql) {
    PgResult result(PQexec(connection_, sql));
    auto status = PQresultStatus(result.handle());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) return errorOf(purpose, result.handle());
    return Status::success();
}

Status PgConnection::beginCopy(std::string_view purpose, const char* sql) {
    PgResult result(PQexec(connection_, sql));
    if (PQresultStatus(result.handle()) != PGRES_COPY_IN) {
        Error error = errorOf(purpose, result.handle());
        (void)drainResults(purpose);
        return error;
    }
    return Status::success();
}

Status PgConnection::putCopyData(std::string_view purpose, std::string_view rows) {
    // Blocking connection: 1 means queued (libpq flushes as its buffer fills), -1 a lost connection.
    if (rows.empty()) return Status::success();
    if (PQputCopyData(connection_, rows.data(), static_cast<int>(rows.size())) != 1) return errorOf(purpose, nullptr);
    return Status::success();
}

Status PgConnection::endCopy(std::string_view purpose) {
    if (PQputCopyEnd(connection_, nullptr) != 1) return errorOf(purpose, nullptr);
    return drainResults(purpose);
}

void PgConnection::abortCopy(std::string_view reason) {
    if (PQputCopyEnd(connection_, std::string(reason).c_str()) == 1) (void)drainResults(reason);
}

Status PgConnection::drainResults(std::string_view purpose) {
    Status status = Status::success();
    while (PGresult* raw = PQgetResult(connection_)) {
        PgResult result(raw);
        auto code = PQresultStatus(raw);
        if (code != PGRES_COMMAND_OK && code != PGRES_TUPLES_OK && status) status = errorOf(purpose, raw);
    }
    return status;
}

Status PgConnection::inTransaction(std::string_view purpose, const std::function<Status()>& body) {
    if (auto begun = execute(purpose, "BEGIN"); !begun) return begun.error();
    Status status = body();
    if (!status) {
        // Failing to roll back leaves the connection outside PQTRANS_IDLE: broken(), so the pool drops it.
        (void)execute(purpose, "ROLLBACK");
        return status;
    }
    if (auto committed = execute(purpose, "COMMIT"); !committed) return committed.error();
    return Status::success();
}

}  // namespace svc
