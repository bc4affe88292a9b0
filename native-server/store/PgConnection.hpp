#pragma once
// One libpq connection (docs/adr/0086). Statements are parameterised (PgParam) and each carries
// its purpose, which names it in errors: "postgres: claim lease: <server message>". Neither
// errors nor logs ever hold the URL, so a password in it stays out of them. Not thread-safe:
// PgDatabase lends each connection to one caller at a time.
#include <libpq-fe.h>

#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.hpp"
#include "store/PgParam.hpp"
#include "store/PgResult.hpp"

namespace svc {

class PgConnection {
public:
    // `url`: a libpq connection URI or key=value string (postgres://user:password@host:port/db?options=...).
    static Result<std::unique_ptr<PgConnection>> open(const std::string& url);
    ~PgConnection();
    PgConnection(const PgConnection&) = delete;
    PgConnection& operator=(const PgConnection&) = delete;

    Result<PgResult> execute(std::string_view purpose, const char* sql, std::initializer_list<PgParam> params = {});
    // A statement whose parameters are counted at run time (a multi-row VALUES list: $1..$n).
    Result<PgResult> execute(std::string_view purpose, const std::string& sql, const std::vector<PgParam>& params);
    // Several statements without parameters at once (migrations' DDL only).
    Status executeScript(std::string_view purpose, const char* sql);
    // COPY ... FROM STDIN: `beginCopy` sends the statement, `putCopyData` whole rows in COPY's
    // text format (PgCopyBuffer), `endCopy` ends it and answers the statement's outcome. No
    // other statement may run on this connection in between. `abortCopy` ends it failed (the
    // server discards every row; the transaction around it is then aborted).
    Status beginCopy(std::string_view purpose, const char* sql);
    Status putCopyData(std::string_view purpose, std::string_view rows);
    Status endCopy(std::string_view purpose);
    void abortCopy(std::string_view reason);
    // BEGIN, `body`, COMMIT; ROLLBACK when `body` fails (its error is returned).
    Status inTransaction(std::string_view purpose, const std::function<Status()>& body);
    // Lost (server restarted, network): the pool drops it instead of lending it again.
    bool broken() const { return PQstatus(connection_) != CONNECTION_OK || PQtransactionStatus(connection_) != PQTRANS_IDLE; }

private:
    explicit PgConnection(PGconn* connection) : connection_(connection) {}
    Result<PgResult> run(std::string_view purpose, const char* sql, const PgParam* params, size_t count);
    Error errorOf(std::string_view purpose, const PGresult* result) const;
    // The results left after COPY ends; the last error among them, if any.
    Status drainResults(std::string_view purpose);

    PGconn* connection_;
};

}  // namespace svc
