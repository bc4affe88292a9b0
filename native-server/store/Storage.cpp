// Storage::open: the one place that picks a backend for a location (docs/adr/0078).
#include "store/Storage.hpp"

#include "store/PgStorage.hpp"
#include "store/SqliteStorage.hpp"

namespace svc {

Result<std::unique_ptr<Storage>> Storage::open(const std::string& location, const Clock& clock) {
    constexpr std::string_view kSqlite = "sqlite:";
    std::string dataDir = location.rfind(kSqlite, 0) == 0 ? location.substr(kSqlite.size()) : location;
    if (dataDir.empty()) return Error::invalidArgument("storage: no data dir given (a path, or sqlite:PATH)");
    if (location.rfind("postgres://", 0) == 0 || location.rfind("postgresql://", 0) == 0) {
        // Errors never repeat the URL: it may hold a password.
        auto storage = PgStorage::open(location, clock);
        if (!storage) return storage.error();
        return std::unique_ptr<Storage>(std::move(*storage));
    }
    if (location.find("://") != std::string::npos && location.rfind(kSqlite, 0) != 0) {
        return Error::invalidArgument("storage: '" + location.substr(0, location.find("://") + 3) +
                                      "' is not a storage this build supports (a data dir path, or sqlite:PATH)");
    }
    auto storage = SqliteStorage::open(dataDir, clock);
    if (!storage) return storage.error();
    return std::unique_ptr<Storage>(std::move(*storage));
}

}  // namespace svc
