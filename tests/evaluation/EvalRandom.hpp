#pragma once
// The random numbers of the evaluation support code: SplitMix64 plus our own
// uniform draws. The standard distributions (std::uniform_int_distribution, ...)
// are implementation-defined, so a feed or a sample drawn with them could differ
// between standard libraries; everything drawn here is the same on every platform.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <utility>

namespace svc::evaluation {

class EvalRng {
public:
    using result_type = uint64_t;

    explicit EvalRng(uint64_t seed) : state_(seed) {}

    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }

    result_type operator()() {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

    // Uniform in [0, n); n must be > 0. Rejection sampling, so without modulo bias.
    uint64_t below(uint64_t n) {
        const uint64_t limit = max() - max() % n;
        uint64_t value;
        do value = (*this)();
        while (value >= limit);
        return value % n;
    }

    // Uniform in [lo, hi], lo <= hi.
    int64_t between(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(below(static_cast<uint64_t>(hi - lo) + 1)); }

    // Uniform in [0, 1), 53 random bits.
    double unit() { return static_cast<double>((*this)() >> 11) * 0x1.0p-53; }

    bool chance(double probability) { return unit() < probability; }

private:
    uint64_t state_;
};

// FNV-1a, for seeds derived from text (std::hash differs between standard libraries).
constexpr uint64_t stableHash(std::string_view text) {
    uint64_t hash = 0xCBF29CE484222325ull;
    for (char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001B3ull;
    }
    return hash;
}

// A seed for one purpose (`stream`, e.g. the item id) derived from a user seed, so
// that independent draws do not share a sequence.
inline uint64_t deriveSeed(uint64_t seed, uint64_t stream) {
    EvalRng mixer(seed ^ (stream * 0xD6E8FEB86659FD93ull));
    mixer();
    return mixer();
}

// Fisher-Yates with EvalRng.
template <typename Vector>
void shuffle(Vector& values, EvalRng& rng) {
    for (size_t i = values.size(); i > 1; --i) {
        size_t j = static_cast<size_t>(rng.below(i));
        if (j != i - 1) std::swap(values[i - 1], values[j]);
    }
}

}  // namespace svc::evaluation
