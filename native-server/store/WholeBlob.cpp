#include "store/WholeBlob.hpp"

namespace svc {

Result<std::optional<std::string>> WholeBlob::read(BlobStore& store, const std::string& key) {
    auto reader = store.open(key);
    if (!reader) {
        if (reader.error().code == ErrorCode::NotFound) return std::optional<std::string>();
        return reader.error();
    }
    std::string bytes;
    char buffer[64 * 1024];
    for (;;) {
        auto got = (*reader)->read(buffer, sizeof buffer);
        if (!got) return got.error();
        if (*got == 0) return std::optional<std::string>(std::move(bytes));
        bytes.append(buffer, *got);
    }
}

Status WholeBlob::write(BlobStore& store, const std::string& key, std::string_view bytes) {
    auto writer = store.create(key);
    if (!writer) return writer.error();
    if (auto wrote = (*writer)->write(bytes); !wrote) return wrote;
    return (*writer)->commit();
}

}  // namespace svc
