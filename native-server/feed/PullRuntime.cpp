#include "feed/PullRuntime.hpp"

#include <filesystem>

namespace svc {

Result<std::unique_ptr<PullRuntime>> PullRuntime::open(const std::string& dataDir, SqliteStorage& storage, const ServerKeys& keys,
                                                       const std::vector<std::string>& allowList, FetchLimits limits,
                                                       PluginPullLimits pluginLimits) {
    auto policy = AddressPolicy::withAllowList(allowList);
    if (!policy) return Error::invalidArgument("--outbound-allow: " + policy.error().message);
    auto cipher = CredentialCipher::loadOrCreate(dataDir);
    if (!cipher) return cipher.error();
    auto sources = SqlitePullSourceStore::open(dataDir);
    if (!sources) return sources.error();
    auto runtime = std::unique_ptr<PullRuntime>(new PullRuntime(*cipher));
    runtime->fetcher_ = std::make_unique<OutboundFetcher>(std::move(*policy), limits);
    runtime->sources_ = std::move(*sources);
    runtime->files_ = std::make_unique<EncryptedFileBlobStore>(dataDir + "/uploads", keys.fileEncryptionKey());
    runtime->imports_ = std::make_unique<FeedImportService>(storage.catalog(), storage.imports(), *runtime->files_, storage.clock());
    // Servers (this one included) learn of pulled imports through the content generation.
    SqliteStorage* shared = &storage;
    runtime->imports_->setAppliedListener([shared](int64_t tenantId, CatalogChange) { (void)shared->content().bumpGeneration(tenantId); });
    runtime->puller_ = std::make_unique<FeedPuller>(*runtime->fetcher_, runtime->cipher_, *runtime->imports_, storage.imports(),
                                                    storage.tenants(), storage.clock(), (std::filesystem::path(dataDir) / "pulls").string());
    auto registrations = SqliteShopRegistrationStore::open(dataDir);
    if (!registrations) return registrations.error();
    runtime->registrations_ = std::move(*registrations);
    runtime->plugins_ = std::make_unique<ShopPluginPuller>(*runtime->fetcher_, *runtime->imports_, storage.imports(), storage.tenants(),
                                                           *runtime->registrations_, storage.clock(),
                                                           (std::filesystem::path(dataDir) / "pulls").string(), pluginLimits);
    runtime->puller_->setPluginPuller(runtime->plugins_.get());
    // A claimed source whose process died is pulled again once its lease ends.
    int64_t lease = limits.totalTimeoutMs / 1000 + 600;
    runtime->scheduler_ = std::make_unique<PullScheduler>(*runtime->sources_, *runtime->puller_, storage.clock(), lease);
    return runtime;
}

}  // namespace svc
