#pragma once
// `count` attempts at once, one thread each; their results in the order they were started.
#include <thread>
#include <vector>

namespace svc::test {

template <typename Attempt>
auto concurrently(int count, Attempt attempt) {
    std::vector<decltype(attempt(0))> results(count);
    std::vector<std::thread> threads;
    for (int i = 0; i < count; ++i) threads.emplace_back([&results, &attempt, i] { results[i] = attempt(i); });
    for (auto& thread : threads) thread.join();
    return results;
}

}  // namespace svc::test
