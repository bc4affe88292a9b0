// bench-recommend-real: SET and SIMILAR on the real H&M baskets of ../shared/data/hm-baskets
// (issue 21) against item co-occurrence, type co-occurrence, popularity and random, with
// bootstrap intervals: tests/evaluation/BasketEvaluation. Run by hand:
//   build/bin/bench-recommend-real [data dir] [folds]
// The doctest RealBasketEvaluationTest runs the same evaluation and asserts the targets.
#include <atomic>
#include <chrono>
#include <iostream>
#include <string>
#include <thread>

#include "evaluation/BasketEvaluation.hpp"
#include "evaluation/TwoThreads.hpp"

int main(int argc, char** argv) {
    std::string directory = argc > 1 ? argv[1] : svc::evaluation::defaultHmBasketsPath();
    std::string whyNot;
    auto data = svc::evaluation::HmBaskets::load(directory, whyNot);
    if (!data) {
        std::cerr << "bench-recommend-real: " << whyNot << "\n";
        return 1;
    }
    svc::evaluation::BasketEvaluationOptions options;
    if (argc > 2) options.folds = std::stoul(argv[2]);
    options.parallel = svc::evaluation::twoThreads();
    auto started = std::chrono::steady_clock::now();
    auto report = svc::evaluation::evaluateBaskets(*data, svc::evaluation::contentPoolTemplates(), options);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::cout << data->articles().size() << " articles, " << data->baskets().size() << " customers' baskets, " << options.folds
              << " customer folds (" << seconds << " s)\n"
              << report.text();
    return 0;
}
