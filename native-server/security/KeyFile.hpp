#pragma once
// A 256-bit key in a file of its own below <data-dir>/keys/ (directory 0700, file 0600),
// created with random bytes on first use. Creation writes a temporary file and links it
// into place, so two processes starting at once agree on one key.
#include <array>
#include <string>

#include "core/Result.hpp"

namespace svc {

using Key256 = std::array<unsigned char, 32>;

class KeyFile {
public:
    // Reads <data-dir>/keys/<name>, creating it (and the directory) when missing.
    static Result<Key256> loadOrCreate(const std::string& dataDir, const std::string& name);
};

}  // namespace svc
