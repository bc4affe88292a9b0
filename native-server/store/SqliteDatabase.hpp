#pragma once
// Thin RAII wrapper over the SQLite C API: a connection and prepared statements.
// Errors become svc::Error values carrying SQLite's message.
#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/Result.hpp"

namespace svc {

class SqliteStatement {
public:
    SqliteStatement(sqlite3* db, sqlite3_stmt* statement) : db_(db), statement_(statement) {}
    SqliteStatement(SqliteStatement&& other) noexcept : db_(other.db_), statement_(other.statement_) { other.statement_ = nullptr; }
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;
    ~SqliteStatement() { sqlite3_finalize(statement_); }

    SqliteStatement& bind(int index, std::string_view text);  // SQLite keeps a copy
    // Binds without a copy (one malloc less per value, which counts in a bulk import): the
    // caller keeps `text` alive and unchanged until this parameter is bound again or the
    // statement is finalized, and rebinds every such parameter before each step.
    SqliteStatement& bindUnowned(int index, std::string_view text);
    SqliteStatement& bind(int index, int64_t value);
    SqliteStatement& bindNull(int index);
    SqliteStatement& bind(int index, const std::optional<int64_t>& value);

    // True while a row is available; errors end the iteration and are kept in lastError().
    Result<bool> step();
    Status run();  // steps to completion, for statements without rows
    void reset();

    std::string text(int column) const;
    int64_t integer(int column) const;
    bool isNull(int column) const;
    sqlite3_stmt* handle() const { return statement_; }
    std::optional<int64_t> optionalInteger(int column) const;

private:
    sqlite3* db_;
    sqlite3_stmt* statement_;
};

class SqliteDatabase {
public:
    // Opens (creating if needed) in WAL mode with a busy timeout.
    static Result<std::unique_ptr<SqliteDatabase>> open(const std::string& path);
    // Opens an existing file read only, changing nothing (no journal mode switch): for looking
    // at a data dir without touching it (`migrate --check`).
    static Result<std::unique_ptr<SqliteDatabase>> openReadOnly(const std::string& path);
    ~SqliteDatabase();

    Status execute(const std::string& sql);
    Result<SqliteStatement> prepare(std::string_view sql);
    int64_t lastInsertRowId() const { return sqlite3_last_insert_rowid(db_); }
    int changes() const { return sqlite3_changes(db_); }
    sqlite3* handle() { return db_; }

private:
    explicit SqliteDatabase(sqlite3* db) : db_(db) {}
    sqlite3* db_;
};

// Rolls back unless committed: a failed or abandoned operation leaves the database as before.
class SqliteTransaction {
public:
    static Result<SqliteTransaction> begin(SqliteDatabase& db);
    // A read of one consistent snapshot that takes no write lock: a reader neither waits for a
    // writer's transaction nor makes one wait (WAL). Ends (rolled back) when destroyed.
    static Result<SqliteTransaction> beginRead(SqliteDatabase& db);
    SqliteTransaction(SqliteTransaction&& other) noexcept : db_(other.db_), open_(other.open_) { other.open_ = false; }
    ~SqliteTransaction();
    Status commit();

private:
    explicit SqliteTransaction(SqliteDatabase& db) : db_(&db) {}
    SqliteDatabase* db_;
    bool open_ = true;
};

}  // namespace svc
