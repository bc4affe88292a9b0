#pragma once
// The parallel-for the evaluations hand the snapshot builder: this machine's two cores, the
// caller's thread and one helper taking indices from one counter.
#include <atomic>
#include <functional>
#include <thread>

#include "recommend/ContentSnapshotBuilder.hpp"

namespace svc::evaluation {

inline ParallelFor twoThreads() {
    return [](size_t count, const std::function<void(size_t)>& work) {
        std::atomic<size_t> next{0};
        auto worker = [&] {
            for (size_t i; (i = next.fetch_add(1)) < count;) work(i);
        };
        std::thread helper(worker);
        worker();
        helper.join();
    };
}

}  // namespace svc::evaluation
