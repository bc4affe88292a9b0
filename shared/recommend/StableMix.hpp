#pragma once
// A fixed 64-bit mixing function (the finaliser of MurmurHash3): orders that must look
// random but stay the same across runs, builds and standard libraries.
#include <cstdint>

namespace svc {

inline uint64_t stableMix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

}  // namespace svc
