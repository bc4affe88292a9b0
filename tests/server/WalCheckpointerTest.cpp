// The events file's checkpoints run on their own thread (store/WalCheckpointer): commits keep
// being copied into the database file, the log stops growing, and what a writer committed is
// all there after the checkpointer stops.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "ServerFixture.hpp"
#include "store/SqliteDatabase.hpp"
#include "store/WalCheckpointer.hpp"

using namespace svc;

namespace {

// 4 KiB pages: 64 rows of 1 KiB per commit add about 16 pages to the log.
void commitRows(SqliteDatabase& db, int commits) {
    auto insert = db.prepare("INSERT INTO rows(payload) VALUES (?)");
    REQUIRE(insert);
    std::string payload(1024, 'x');
    for (int c = 0; c < commits; ++c) {
        auto transaction = SqliteTransaction::begin(db);
        REQUIRE(transaction);
        for (int r = 0; r < 64; ++r) {
            insert->reset();
            insert->bind(1, payload);
            REQUIRE(insert->run());
        }
        REQUIRE(transaction->commit());
    }
}

int64_t rowCount(SqliteDatabase& db) {
    auto query = db.prepare("SELECT COUNT(*) FROM rows");
    REQUIRE(query);
    REQUIRE(*query->step());
    return query->integer(0);
}

}  // namespace

TEST_CASE("WalCheckpointer: a writer's log is checkpointed by the thread, the log stays bounded, nothing committed is lost" *
          test::sqliteOnly("the checkpointer bounds an SQLite file's write-ahead log")) {
    test::TempDir dir;
    std::string path = dir.path() + "/events.sqlite3";
    auto writer = SqliteDatabase::open(path);
    REQUIRE(writer);
    REQUIRE((*writer)->execute("CREATE TABLE rows(id INTEGER PRIMARY KEY, payload TEXT NOT NULL)"));
    const auto mainFileBefore = std::filesystem::file_size(path);
    {
        auto checkpointer = WalCheckpointer::attach(path, **writer, 100);
        REQUIRE(checkpointer);
        commitRows(**writer, 200);  // about 3,200 pages: 30 thresholds crossed
        // The thread runs after the commit that crossed the threshold; give it a moment.
        for (int i = 0; i < 100 && (*checkpointer)->checkpoints() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
        MESSAGE("checkpoints " << (*checkpointer)->checkpoints() << ", database file " << std::filesystem::file_size(path) << " bytes, log "
                               << std::filesystem::file_size(path + "-wal") << " bytes");
        CHECK((*checkpointer)->checkpoints() >= 1);
        // The writer's own automatic checkpoint is replaced, so only the thread can have
        // copied pages into the database file.
        CHECK(std::filesystem::file_size(path) > mainFileBefore + 1024 * 1024);
        // Without checkpoints the log holds everything: ~20 MB of frames for ~13 MB of rows. A
        // checkpointed log is reused from its start once fully copied; its file keeps the
        // largest extent reached, a few thresholds' worth (4 x 100 pages, plus the commits
        // made while the thread's checkpoint ran).
        CHECK(std::filesystem::file_size(path + "-wal") < 4u * 1024 * 1024);
    }
    // Stopped: every committed row is readable from a fresh connection.
    auto reader = SqliteDatabase::open(path);
    REQUIRE(reader);
    CHECK(rowCount(**reader) == 200 * 64);
}
