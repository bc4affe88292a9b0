#pragma once
// What every data-dir command needs: storage, keys, the encrypted file store and imports, opened
// in one place so the commands do not each wire them (and a running server learns of their
// imports the same way whichever command made them).
#include <memory>
#include <optional>
#include <string>

#include "core/Result.hpp"
#include "feed/FeedImportService.hpp"
#include "security/ServerKeys.hpp"
#include "store/EncryptedFileBlobStore.hpp"
#include "feed/CatalogChanged.hpp"
#include "store/Storage.hpp"

namespace svc {

struct DataDirContext {
    std::unique_ptr<Storage> storage;
    std::optional<ServerKeys> keys;
    std::unique_ptr<EncryptedFileBlobStore> files;
    std::unique_ptr<FeedImportService> imports;
    // No subscribers in a CLI process: a running server learns of its imports through the content generation.
    std::unique_ptr<CatalogChanged> catalogChanged;

    // `databaseUrl`: the stores in PostgreSQL (--database-url); empty: the data dir's SQLite files.
    static Result<DataDirContext> open(const std::string& dataDir, const std::string& databaseUrl = "");
    // The tenant `--api-id` names; not found names the option.
    Result<Tenant> tenant(const std::string& apiId);
};

}  // namespace svc
