// The FeedImportStore contract (shared/store/FeedImportStore.hpp) on every backend, with the
// import leases that tell a live owner's running import from one whose owner is gone.
#include "StoreBackends.hpp"

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
