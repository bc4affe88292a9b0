#pragma once
// The floor of the events benchmarks on PostgreSQL (issue 24: "a bare INSERT loop with group commit at the same batch
// sizes"): one INSERT per event and per order line into a plain table of every event's columns, one BEGIN/COMMIT per
// batch, on one connection. bench-events (the server over HTTP) and bench-events-postgres (PgEventStore in process)
// both measure against it; each hands over its events as FloorEvent batches made before the clock starts.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "BenchSupport.hpp"
#include "store/PgConnection.hpp"

namespace bench::pg {

inline std::unique_ptr<svc::PgConnection> connect(const std::string& url) {
    auto connection = svc::PgConnection::open(url);
    if (!connection) throw StepFailure(connection.error().message);
    return std::move(*connection);
}

inline void exec(svc::PgConnection& connection, const std::string& sql) {
    if (auto status = connection.executeScript("bench", sql.c_str()); !status) throw StepFailure(status.error().message);
}

inline int64_t single(svc::PgConnection& connection, const std::string& sql) {
    auto result = connection.execute("bench: count", sql, {});
    if (!result) throw StepFailure(result.error().message);
    return result->integer(0, 0);
}

inline std::string setting(svc::PgConnection& connection, const char* name) {
    auto value = connection.execute("bench: read setting", "SELECT current_setting($1)", {name});
    if (!value) throw StepFailure(value.error().message);
    return value->text(0, 0);
}

// "fsync=on, synchronous_commit=on (durable when a commit returns)", or "... (NOT durable)".
inline std::string durability(svc::PgConnection& connection) {
    std::string fsync = setting(connection, "fsync"), synchronousCommit = setting(connection, "synchronous_commit");
    bool durable = fsync == "on" && synchronousCommit != "off";
    return "fsync=" + fsync + ", synchronous_commit=" + synchronousCommit + (durable ? " (durable when a commit returns)" : " (NOT durable)");
}

// `url` with its search_path set to `schema` (libpq's options parameter).
inline std::string withSearchPath(const std::string& url, const std::string& schema) {
    return url + (url.find('?') == std::string::npos ? "?" : "&") + "options=-c%20search_path%3D" + schema;
}

// A schema of its own on the server, dropped with this object.
class Schema {
public:
    Schema(const std::string& serverUrl, const std::string& name) : server_(connect(serverUrl)), name_(name) {
        exec(*server_, "DROP SCHEMA IF EXISTS " + name_ + " CASCADE; CREATE SCHEMA " + name_);
        url_ = withSearchPath(serverUrl, name_);
    }
    ~Schema() {
        try {
            exec(*server_, "DROP SCHEMA " + name_ + " CASCADE");
        } catch (const std::exception&) {
        }
    }
    Schema(const Schema&) = delete;
    Schema& operator=(const Schema&) = delete;
    const std::string& url() const { return url_; }

private:
    std::unique_ptr<svc::PgConnection> server_;
    std::string name_;
    std::string url_;
};

struct FloorLine {
    std::string sku;
    int64_t amount = 1, price = 0;
};

// One event row: a purchase when it has an order id (its lines then go to the order lines table).
struct FloorEvent {
    int64_t tenantId = 1;
    std::string type;
    std::optional<std::string> cid, sid, orderId, widget, touchpoint, sku, setId, testGroup, variant;
    std::optional<int64_t> clientTime;
    std::vector<FloorLine> lines;
};
using FloorBatch = std::vector<FloorEvent>;

// The floor's tables in the schema of `url` (search_path), and its INSERT loop on a connection of its own; a second
// committer on the same tables is made with createTables false.
class InsertFloor {
public:
    explicit InsertFloor(const std::string& url, bool createTables = true) : connection_(connect(url)) {
        if (!createTables) return;
        exec(*connection_,
             "CREATE TABLE floor_events (sequence bigserial PRIMARY KEY, tenant_id bigint NOT NULL, type text NOT NULL, "
             "received_at bigint NOT NULL, cid text, sid text, order_id text, widget text, touchpoint text, sku text, set_id text, "
             "test_group text, variant text, client_time bigint);"
             "CREATE TABLE floor_order_lines (event bigint NOT NULL, line int NOT NULL, sku text NOT NULL, amount bigint NOT NULL, "
             "price bigint NOT NULL, PRIMARY KEY (event, line))");
    }

    // One transaction for the batch; returns when it is committed.
    void commit(const FloorBatch& batch, int64_t receivedAt) {
        auto check = [](const svc::Result<svc::PgResult>& done) {
            if (!done) throw StepFailure("floor: " + done.error().message);
        };
        svc::PgConnection& connection = *connection_;
        check(connection.execute("floor: begin", "BEGIN"));
        for (const FloorEvent& event : batch) {
            if (event.orderId) {
                auto inserted = connection.execute("floor: insert purchase",
                                                   "INSERT INTO floor_events(tenant_id, type, received_at, cid, order_id) "
                                                   "VALUES ($1, $2, $3, $4, $5) RETURNING sequence",
                                                   {event.tenantId, event.type, receivedAt, event.cid, event.orderId});
                check(inserted);
                int64_t sequence = inserted->integer(0, 0);
                for (size_t line = 0; line < event.lines.size(); ++line) {
                    check(connection.execute("floor: insert line",
                                             "INSERT INTO floor_order_lines(event, line, sku, amount, price) VALUES ($1, $2, $3, $4, $5)",
                                             {sequence, static_cast<int64_t>(line), event.lines[line].sku, event.lines[line].amount,
                                              event.lines[line].price}));
                }
                continue;
            }
            check(connection.execute("floor: insert event",
                                     "INSERT INTO floor_events(tenant_id, type, received_at, cid, sid, widget, touchpoint, sku, set_id, "
                                     "test_group, variant, client_time) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
                                     {event.tenantId, event.type, receivedAt, event.cid, event.sid, event.widget, event.touchpoint, event.sku,
                                      event.setId, event.testGroup, event.variant, event.clientTime}));
        }
        check(connection.execute("floor: commit", "COMMIT"));
    }

    int64_t storedEvents() { return single(*connection_, "SELECT count(*) FROM floor_events"); }
    int64_t storedLines() { return single(*connection_, "SELECT count(*) FROM floor_order_lines"); }

private:
    std::unique_ptr<svc::PgConnection> connection_;
};

}  // namespace bench::pg
