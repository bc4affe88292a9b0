// The FeedImportStore contract (shared/store/FeedImportStore.hpp) on every backend, with the
// import leases that tell a live owner's running import from one whose owner is gone.
#include "StoreBackends.hpp"

#include <chrono>
#include <thread>

namespace svc::contract {
namespace {

FeedImportRecord recordOf(const Tenant& tenant, int64_t createdAt, const std::string& fileKey = "file") {
    FeedImportRecord record;
    record.tenantId = tenant.id;
    record.source = "push";
    record.fileKey = fileKey;
    record.createdAt = createdAt;
    return record;
}

}  // namespace

TEST_CASE("FeedImportStore: a tenant finds and lists only its own imports; an unknown id is absent") {
    forEachBackend([](Backend& backend) {
        FeedImportStore& imports = backend.storage->imports();
        Tenant a = newTenant(*backend.storage, "A"), b = newTenant(*backend.storage, "B");
        auto id = imports.create(recordOf(a, 10));
        REQUIRE(id);
        CHECK(imports.find(a.id, *id).value() != std::nullopt);
        CHECK(imports.find(b.id, *id).value() == std::nullopt);
        CHECK(imports.find(a.id, *id + 1000).value() == std::nullopt);
        CHECK(imports.list(b.id, "default", 10).value().empty());
        CHECK(imports.list(a.id, "default", 10).value().size() == 1);
    });
}

TEST_CASE("FeedImportStore: a record created finished is stored whole by create, with its outcome") {
    forEachBackend([](Backend& backend) {
        Tenant a = newTenant(*backend.storage, "A");
        FeedImportRecord failed = recordOf(a, 10, "");
        failed.status = ImportStatus::Failed;
        failed.startedAt = 10;
        failed.finishedAt = 11;
        failed.rowsRead = 3;
        failed.rejected = 2;
        failed.message = "pull failed: connect: refused";
        failed.rowErrors = {RowError{RowErrorKind::InvalidProduct, 1, 0, "products?page=1: sku: required"}};
        auto id = backend.storage->imports().create(failed);
        REQUIRE(id);
        // Read from another process, as the console of another node would: nothing is added later.
        auto stored = backend.openAnother()->imports().find(a.id, *id).value();
        REQUIRE(stored);
        CHECK(stored->status == ImportStatus::Failed);
        CHECK(stored->message == "pull failed: connect: refused");
        CHECK(stored->startedAt == 10);
        CHECK(stored->finishedAt == 11);
        CHECK(stored->rowsRead == 3);
        CHECK(stored->rejected == 2);
        REQUIRE(stored->rowErrors.size() == 1);
        CHECK(stored->rowErrors[0].message == "products?page=1: sku: required");
    });
}

TEST_CASE("FeedImportStore: the oldest queued import is claimed once, by one of two processes") {
    forEachBackend([](Backend& backend) {
        Tenant a = newTenant(*backend.storage, "A");
        auto first = backend.storage->imports().create(recordOf(a, 10)).value();
        auto second = backend.storage->imports().create(recordOf(a, 20)).value();
        auto another = backend.openAnother();
        auto claimed = backend.storage->imports().claimNextQueued(100).value();
        REQUIRE(claimed);
        CHECK(claimed->id == first);
        CHECK(claimed->status == ImportStatus::Running);
        auto next = another->imports().claimNextQueued(100).value();
        REQUIRE(next);
        CHECK(next->id == second);
        CHECK(backend.storage->imports().claimNextQueued(100).value() == std::nullopt);
    });
}

TEST_CASE("FeedImportStore: a running import is left alone while its owner lives, and requeued once its owner is gone") {
    forEachBackend([](Backend& backend) {
        Tenant a = newTenant(*backend.storage, "A");
        auto owner = backend.openAnother();  // the process running the import
        int64_t id = owner->imports().create(recordOf(a, 10)).value();
        REQUIRE(owner->imports().claimNextQueued(100).value());
        REQUIRE(backend.storage->imports().requeueInterrupted());
        CHECK(backend.storage->imports().find(a.id, id).value()->status == ImportStatus::Running);
        owner.reset();  // its leases end with it
        REQUIRE(backend.storage->imports().requeueInterrupted());
        CHECK(backend.storage->imports().find(a.id, id).value()->status == ImportStatus::Queued);
    });
}

}  // namespace svc::contract

namespace svc::contract {

// A CLI or pulled import is created running and run at once: its creator owns it from the first
// instant, or a requeue running meanwhile in the server (or on another node) would take it.
TEST_CASE("FeedImportStore: an import created running is its creator's from the start; a requeue elsewhere leaves it alone") {
    forEachBackend([](Backend& backend) {
        Tenant a = newTenant(*backend.storage, "A");
        auto creator = backend.openAnother();
        FeedImportRecord record = recordOf(a, 10);
        record.status = ImportStatus::Running;
        int64_t id = creator->imports().create(record).value();
        auto requeued = backend.storage->imports().requeueInterrupted();
        REQUIRE(requeued);
        CHECK(requeued->empty());
        CHECK(backend.storage->imports().find(a.id, id).value()->status == ImportStatus::Running);
        creator.reset();
        requeued = backend.storage->imports().requeueInterrupted();
        REQUIRE(requeued);
        CHECK(*requeued == std::vector<int64_t>{id});
        CHECK(backend.storage->imports().find(a.id, id).value()->status == ImportStatus::Queued);
    });
}

// Node A makes an import running while node B's periodic requeue runs: by claiming a queued one,
// or by running a held one the operator confirmed. The leases table is held locked so that A stops
// exactly where it writes its lease, and B's requeue runs then. When A's lease was written after
// the import showed as running (the design reverted in session 32), B saw it running and
// ownerless at that instant and queued it again under A's feet, so two nodes ran it. A claim and
// its lease in one statement, and a lease taken before the update, are never seen apart.
TEST_CASE("FeedImportStore: on PostgreSQL a requeue running while an import becomes running never takes it from its runner" *
          svc::test::needs(svc::test::SkipReason::DependencyInstalledByScripts, postgresInstalled(),
                           "PostgreSQL is not installed (scripts/install-deps.sh installs it)")) {
    for (const bool confirmingHeld : {false, true}) {
        CAPTURE(confirmingHeld);
        auto url = postgresUrl();
        REQUIRE(url);
        auto backend = openBackend(*url);
        Tenant a = newTenant(*backend->storage, "A");
        FeedImportRecord record = recordOf(a, 10);
        if (confirmingHeld) record.status = ImportStatus::Held;
        record.id = backend->storage->imports().create(record).value();
        auto nodeA = backend->openAnother();
        auto locker = PgConnection::open(backend->schema->url());
        REQUIRE(locker);
        auto run = [&](const char* sql) -> int64_t {
            auto done = (*locker)->execute("lock leases", sql);
            REQUIRE_MESSAGE(done, (done ? "" : done.error().message));
            return done->rows() > 0 ? done->integer(0, 0) : 0;
        };
        run("BEGIN");
        run("LOCK TABLE leases IN EXCLUSIVE MODE");
        Status madeRunning = Status::success();
        std::thread nodeAThread([&] {
            if (!confirmingHeld) {
                auto claimed = nodeA->imports().claimNextQueued(100);
                if (!claimed) madeRunning = claimed.error();
                else if (!*claimed || (*claimed)->id != record.id) madeRunning = Error::notFound("the queued import was not claimed");
                return;
            }
            FeedImportRecord confirmed = record;
            confirmed.status = ImportStatus::Running;
            madeRunning = nodeA->imports().update(confirmed);
        });
        bool waiting = false;
        for (int tries = 0; tries < 500 && !waiting; ++tries) {
            waiting = run("SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = 'leases'::regclass") > 0;
            if (!waiting) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        auto requeued = backend->storage->imports().requeueInterrupted();
        run("COMMIT");
        nodeAThread.join();
        REQUIRE(waiting);
        REQUIRE_MESSAGE(madeRunning, (madeRunning ? "" : madeRunning.error().message));
        REQUIRE(requeued);
        CHECK(requeued->empty());
        CHECK(backend->storage->imports().find(a.id, record.id).value()->status == ImportStatus::Running);
        CHECK(backend->storage->imports().claimNextQueued(100).value() == std::nullopt);  // nobody runs it a second time
    }
}

}  // namespace svc::contract
