#include "cli/DataDirContext.hpp"

#include "app/SystemClock.hpp"
#include "cli/DatabaseUrlOption.hpp"
#include "net/CredentialCipher.hpp"

namespace svc {

Result<DataDirContext> DataDirContext::open(const std::string& dataDir, const std::string& databaseUrl) {
    DataDirContext context;
    auto storage = Storage::open(DatabaseUrlOption::storageLocation(dataDir, databaseUrl), systemClock());
    if (!storage) return storage.error();
    context.storage = std::move(*storage);
    auto keys = ServerKeys::loadOrCreate(dataDir);
    if (!keys) return keys.error();
    context.keys = *keys;
    // The whole key set of a node, made by whichever command runs first: an operator copies
    // <data-dir>/keys/ to every node of a cluster (docs/operations.md), the credentials key included.
    if (auto credentials = CredentialCipher::loadOrCreate(dataDir); !credentials) return credentials.error();
    context.files = std::make_unique<EncryptedFileBlobStore>(dataDir + "/uploads", context.keys->fileEncryptionKey());
    context.imports = std::make_unique<FeedImportService>(context.storage->catalog(), context.storage->imports(), *context.files,
                                                           context.storage->clock());
    context.catalogChanged = std::make_unique<CatalogChanged>(context.storage->content());
    context.catalogChanged->publishFrom(*context.imports);
    return context;
}

Result<Tenant> DataDirContext::tenant(const std::string& apiId) {
    auto found = storage->tenants().findByApiId(apiId);
    if (!found) return found.error();
    if (!*found) return Error::notFound("--api-id: no tenant with API ID " + apiId);
    return **found;
}

}  // namespace svc
