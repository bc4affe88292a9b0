#pragma once
// Blobs small enough to be read and written whole (set photos, thumbnails: bounded when they are
// made), in whichever BlobStore holds them: the data dir's or the cluster's bucket (docs/adr/0090).
#include <optional>
#include <string>
#include <string_view>

#include "store/BlobStore.hpp"

namespace svc {

class WholeBlob {
public:
    // The blob's bytes; nullopt when nothing is stored under `key`.
    static Result<std::optional<std::string>> read(BlobStore& store, const std::string& key);
    // Stored under `key`, visible only once all of it is.
    static Status write(BlobStore& store, const std::string& key, std::string_view bytes);
};

}  // namespace svc
