#pragma once
// SQL on the database that holds a data dir's stores, on either backend (TestStorage.hpp), for
// what no store interface offers a test: a column's stored bytes, rows as an older svc wrote
// them, a lock held from outside. Where the backends' tables differ (SQLite keeps a catalog file
// per tenant; PostgreSQL one schema, tenant_id in every key) a statement gives both texts.
// Parameters are $1, $2... on both (SQLite reads them as ?1, ?2); a statement whose SQLite text
// needs fewer puts those last.
#include <doctest/doctest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "TestStorage.hpp"
#include "store/PgConnection.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc::test {

class DataDirSql {
public:
    struct Statement {
        Statement(const char* both) : sqlite(both), postgres(both) {}  // NOLINT: most statements read the same on both
        Statement(std::string both) : sqlite(both), postgres(std::move(both)) {}  // NOLINT
        Statement(std::string onSqlite, std::string onPostgres) : sqlite(std::move(onSqlite)), postgres(std::move(onPostgres)) {}
        std::string sqlite;
        std::string postgres;
    };
    using Value = std::variant<int64_t, std::string>;

    // `sqliteFile`: the data dir's file that holds the tables ("svc.sqlite3", "events.sqlite3",
    // "catalog/tenant-1.sqlite3"); on PostgreSQL they are all in the data dir's schema.
    static Result<DataDirSql> open(const std::string& dataDir, const std::string& sqliteFile) {
        DataDirSql sql;
        if (TestStorage::onPostgres()) {
            auto connection = PgConnection::open(TestStorage::locationOf(dataDir));
            if (!connection) return connection.error();
            sql.postgres_ = std::move(*connection);
        } else {
            auto db = SqliteDatabase::open(dataDir + "/" + sqliteFile);
            if (!db) return db.error();
            sql.sqlite_ = std::move(*db);
        }
        return sql;
    }

    // Statements without rows; without parameters the text may hold several.
    Status execute(const Statement& statement, const std::vector<Value>& parameters = {}) {
        if (parameters.empty()) {
            if (postgres_) return postgres_->executeScript("test statement", statement.postgres.c_str());
            return sqlite_->execute(statement.sqlite);
        }
        auto found = rows(statement, parameters);
        if (!found) return found.error();
        return Status::success();
    }

    // Every row, each column as text (NULL as empty text).
    using Rows = std::vector<std::vector<std::string>>;
    Result<Rows> rows(const Statement& statement, const std::vector<Value>& parameters = {}) {
        Rows found;
        if (postgres_) {
            std::vector<PgParam> bound;
            for (const auto& value : parameters) {
                if (const auto* number = std::get_if<int64_t>(&value)) bound.emplace_back(*number);
                else bound.emplace_back(std::get<std::string>(value));
            }
            auto result = postgres_->execute("test statement", statement.postgres, bound);
            if (!result) return result.error();
            for (int row = 0; row < result->rows(); ++row) {
                found.emplace_back();
                for (int column = 0; column < PQnfields(result->handle()); ++column) found.back().push_back(result->text(row, column));
            }
            return found;
        }
        auto prepared = sqlite_->prepare(sqliteParameters(statement.sqlite));
        if (!prepared) return prepared.error();
        // A parameter the SQLite text does not use stays unbound: a tenant's catalog file has no
        // tenant_id, which the PostgreSQL text needs.
        size_t used = static_cast<size_t>(sqlite3_bind_parameter_count(prepared->handle()));
        for (size_t i = 0; i < parameters.size() && i < used; ++i) {
            int index = static_cast<int>(i) + 1;
            if (const auto* number = std::get_if<int64_t>(&parameters[i])) prepared->bind(index, *number);
            else prepared->bind(index, std::get<std::string>(parameters[i]));
        }
        while (true) {
            auto row = prepared->step();
            if (!row) return row.error();
            if (!*row) return found;
            found.emplace_back();
            for (int column = 0; column < sqlite3_column_count(prepared->handle()); ++column) found.back().push_back(prepared->text(column));
        }
    }

    // The first column of every row.
    Result<std::vector<std::string>> column(const Statement& statement, const std::vector<Value>& parameters = {}) {
        auto found = rows(statement, parameters);
        if (!found) return found.error();
        std::vector<std::string> values;
        for (const auto& row : *found) values.push_back(row.at(0));
        return values;
    }

    // The first column of the first row as a number (a count).
    Result<int64_t> integer(const Statement& statement, const std::vector<Value>& parameters = {}) {
        auto values = column(statement, parameters);
        if (!values) return values.error();
        if (values->empty()) return Error::notFound("no row");
        return std::stoll(values->front());
    }

    // Everything svc keeps for `dataDir`, as bytes: the data dir's files and, on PostgreSQL, every
    // value of every table of its schema as text (bytea escaped, which keeps printable bytes
    // as they are). Where a test looks for a secret that must never be stored.
    static std::string storedBytes(const std::string& dataDir) {
        std::string all;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(dataDir)) {
            if (!entry.is_regular_file()) continue;
            std::ifstream file(entry.path(), std::ios::binary);
            std::stringstream bytes;
            bytes << file.rdbuf();
            all += bytes.str();
        }
        if (!TestStorage::onPostgres()) return all;
        auto sql = open(dataDir, "");
        REQUIRE_MESSAGE(sql, (sql ? "" : sql.error().message));
        // One SELECT per table (partitions and their parents alike: a row read twice does no harm).
        auto tables = sql->column(
            "SELECT format('SELECT concat_ws('' '', %s) FROM %I', string_agg(CASE WHEN data_type = 'bytea' "
            "THEN format('encode(%I, ''escape'')', column_name) ELSE format('%I::text', column_name) END, ', ' ORDER BY ordinal_position), "
            "table_name) FROM information_schema.columns WHERE table_schema = current_schema() GROUP BY table_name");
        REQUIRE_MESSAGE(tables, (tables ? "" : tables.error().message));
        REQUIRE(!tables->empty());
        for (const auto& select : *tables) {
            auto rows = sql->column(select);
            REQUIRE_MESSAGE(rows, (rows ? "" : rows.error().message));
            for (const auto& row : *rows) all += row + "\n";
        }
        return all;
    }

private:
    DataDirSql() = default;

    // $1 becomes ?1: a numbered parameter in SQLite's spelling ($1 would be a named one).
    static std::string sqliteParameters(std::string sql) {
        for (size_t i = 0; i + 1 < sql.size(); ++i) {
            if (sql[i] == '$' && std::isdigit(static_cast<unsigned char>(sql[i + 1]))) sql[i] = '?';
        }
        return sql;
    }

    std::unique_ptr<SqliteDatabase> sqlite_;
    std::unique_ptr<PgConnection> postgres_;
};

}  // namespace svc::test
