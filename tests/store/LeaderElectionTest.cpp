// The cluster's leader (native-server/app/LeaderElection.hpp, docs/adr/0092) on every backend of
// the LeaseStore: two "nodes" (two Storages opened on one backend, two elections) never lead at
// once, and the second takes over within the lease time once the first stops renewing.
#include "StoreBackends.hpp"

#include <thread>

#include "app/LeaderElection.hpp"
#include "app/SystemClock.hpp"

namespace svc::contract {

TEST_CASE("LeaseStore: of two nodes one leads and runs the jobs; the other takes over when the leader's lease expires or is released") {
    forEachBackend([](Backend& backend) {
        auto otherStorage = backend.openAnother();
        // Owners on other hosts: only the lease's expiry tells that one died.
        LeaderElection a(backend.storage->leases(), backend.clock, "host-a/1/a", 15);
        LeaderElection b(otherStorage->leases(), backend.clock, "host-b/1/b", 15);
        int runsOnA = 0;
        int runsOnB = 0;
        a.addJob({"count", 60, [&] { return ++runsOnA, Status::success(); }});
        b.addJob({"count", 60, [&] { return ++runsOnB, Status::success(); }});

        a.runRound();
        b.runRound();
        CHECK(a.leading());
        CHECK_FALSE(b.leading());
        CHECK(runsOnA == 1);  // at once when it takes over
        // A minute of rounds every 5 s: a renews, b never leads, the job runs once per its period.
        for (int round = 0; round < 12; ++round) {
            backend.clock.now += 5;
            a.runRound();
            b.runRound();
            CHECK(a.leading());
            CHECK_FALSE(b.leading());
        }
        CHECK(runsOnA == 2);
        CHECK(runsOnB == 0);

        // a dies (no more rounds, nothing released): b waits out the lease, and a's claim of
        // leading ends on the clock at the second b's begins.
        backend.clock.now += 14;
        b.runRound();
        CHECK(a.leading());
        CHECK_FALSE(b.leading());
        backend.clock.now += 1;
        CHECK_FALSE(a.leading());
        b.runRound();
        CHECK(b.leading());
        CHECK(runsOnB == 1);
        // a comes back: b holds the lease.
        a.runRound();
        CHECK_FALSE(a.leading());
        CHECK(runsOnA == 2);

        // b stops: it releases the lease, and a takes over at its next round without waiting.
        b.stop();
        CHECK_FALSE(b.leading());
        a.runRound();
        CHECK(a.leading());
        CHECK(runsOnA == 3);  // a new reign runs its jobs at once
    });
}

TEST_CASE("LeaseStore: two elections running on their own threads never lead at once; the second leads soon after the first stops") {
    forEachBackend([](Backend& backend) {
        auto otherStorage = backend.openAnother();
        const Clock& clock = systemClock();
        auto a = std::make_unique<LeaderElection>(backend.storage->leases(), clock, "host-a/1/a", 2);
        LeaderElection b(otherStorage->leases(), clock, "host-b/1/b", 2);
        a->start(std::chrono::milliseconds(50));
        b.start(std::chrono::milliseconds(50));
        int bothLeading = 0;
        int aLeading = 0;
        for (int sample = 0; sample < 100; ++sample) {
            bothLeading += a->leading() && b.leading();
            aLeading += a->leading();
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        CHECK(bothLeading == 0);
        CHECK(aLeading == 100);  // started first, it kept the lease by renewing it
        auto stopped = std::chrono::steady_clock::now();
        a.reset();  // stopped and destroyed: the lease released
        while (!b.leading() && std::chrono::steady_clock::now() - stopped < std::chrono::seconds(3)) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        CHECK(b.leading());
        CHECK(std::chrono::steady_clock::now() - stopped < std::chrono::milliseconds(500));  // a round, not the lease's time
    });
}

}  // namespace svc::contract
