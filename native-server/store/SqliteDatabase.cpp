#include "store/SqliteDatabase.hpp"

#include "store/PrivateFiles.hpp"

namespace svc {

SqliteStatement& SqliteStatement::bind(int index, std::string_view text) {
    sqlite3_bind_text(statement_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    return *this;
}

SqliteStatement& SqliteStatement::bindUnowned(int index, std::string_view text) {
    sqlite3_bind_text(statement_, index, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, int64_t value) {
    sqlite3_bind_int64(statement_, index, value);
    return *this;
}

SqliteStatement& SqliteStatement::bindNull(int index) {
    sqlite3_bind_null(statement_, index);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, const std::optional<int64_t>& value) {
    return value ? bind(index, *value) : bindNull(index);
}

Result<bool> SqliteStatement::step() {
    int code = sqlite3_step(statement_);
    if (code == SQLITE_ROW) return true;
    if (code == SQLITE_DONE) return false;
    return Error::unavailable(std::string("sqlite: ") + sqlite3_errmsg(db_));
}

Status SqliteStatement::run() {
    while (true) {
        auto more = step();
        if (!more) return more.error();
        if (!*more) return Status::success();
    }
}

void SqliteStatement::reset() {
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
}

std::string SqliteStatement::text(int column) const {
    const auto* data = sqlite3_column_text(statement_, column);
    if (!data) return {};
    return std::string(reinterpret_cast<const char*>(data), static_cast<size_t>(sqlite3_column_bytes(statement_, column)));
}

int64_t SqliteStatement::integer(int column) const { return sqlite3_column_int64(statement_, column); }

bool SqliteStatement::isNull(int column) const { return sqlite3_column_type(statement_, column) == SQLITE_NULL; }

std::optional<int64_t> SqliteStatement::optionalInteger(int column) const {
    if (isNull(column)) return std::nullopt;
    return integer(column);
}

Result<std::unique_ptr<SqliteDatabase>> SqliteDatabase::open(const std::string& path) {
    // Created 0600 before SQLite opens it: SQLite would create it 0644 (less the umask), and
    // gives its -wal, -shm and journal files the database file's mode.
    if (auto created = PrivateFiles::createFile(path); !created) return created.error();
    sqlite3* db = nullptr;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX;
    if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
        std::string message = db ? sqlite3_errmsg(db) : "out of memory";
        sqlite3_close(db);
        return Error::unavailable("sqlite: cannot open " + path + ": " + message);
    }
    std::unique_ptr<SqliteDatabase> database(new SqliteDatabase(db));
    sqlite3_busy_timeout(db, 10000);
    // WAL lets readers (GraphQL, widgets) run while an import writes.
    for (const char* pragma : {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON"}) {
        if (auto status = database->execute(pragma); !status) return status.error();
    }
    return database;
}

Result<std::unique_ptr<SqliteDatabase>> SqliteDatabase::openReadOnly(const std::string& path) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX, nullptr) != SQLITE_OK) {
        std::string message = db ? sqlite3_errmsg(db) : "out of memory";
        sqlite3_close(db);
        return Error::unavailable("sqlite: cannot open " + path + ": " + message);
    }
    sqlite3_busy_timeout(db, 10000);
    return std::unique_ptr<SqliteDatabase>(new SqliteDatabase(db));
}

SqliteDatabase::~SqliteDatabase() { sqlite3_close_v2(db_); }

Status SqliteDatabase::execute(const std::string& sql) {
    char* message = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
        std::string text = message ? message : "unknown error";
        sqlite3_free(message);
        return Error::unavailable("sqlite: " + text);
    }
    return Status::success();
}

Result<SqliteStatement> SqliteDatabase::prepare(std::string_view sql) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &statement, nullptr) != SQLITE_OK) {
        return Error::internal(std::string("sqlite: ") + sqlite3_errmsg(db_));
    }
    return SqliteStatement(db_, statement);
}

Result<SqliteTransaction> SqliteTransaction::begin(SqliteDatabase& db) {
    // IMMEDIATE takes the write lock now, so two imports never interleave.
    if (auto status = db.execute("BEGIN IMMEDIATE"); !status) return status.error();
    return SqliteTransaction(db);
}

Result<SqliteTransaction> SqliteTransaction::beginRead(SqliteDatabase& db) {
    if (auto status = db.execute("BEGIN DEFERRED"); !status) return status.error();
    return SqliteTransaction(db);
}

SqliteTransaction::~SqliteTransaction() {
    if (open_) (void)db_->execute("ROLLBACK");
}

Status SqliteTransaction::commit() {
    auto status = db_->execute("COMMIT");
    if (status) open_ = false;
    return status;
}

}  // namespace svc
