#include "feed/PullRuntime.hpp"

#include <sodium.h>

#include <filesystem>

namespace svc {
namespace {

// Sources stored by an svc that kept the whole URL: the query moves into the sealed credentials
// and the stored URL keeps only its redacted form (issue 18, docs/adr/0061). Runs at every
// open; finds nothing to do once done.
Status sealUrlQueries(PullSourceStore& sources, const CredentialCipher& cipher) {
    auto all = sources.listAll();
    if (!all) return all.error();
    for (PullSource source : *all) {
        if (source.kind != kPullSourceFile || redactPullUrl(source.url) == source.url) continue;
        Credentials credentials;
        std::string owner = FeedPuller::credentialOwner(source.tenantId, source.feed);
        if (!source.sealedCredentials.empty()) {
            auto opened = cipher.open(source.sealedCredentials, owner);
            if (!opened) continue;  // another key file: left as it is, the operator sets it again
            credentials = std::move(*opened);
        }
        credentials.urlQuery = pullUrlQuery(source.url);
        source.url = redactPullUrl(source.url);
        source.sealedCredentials = cipher.seal(credentials, owner);
        sodium_memzero(credentials.password.data(), credentials.password.size());
        sodium_memzero(credentials.privateKey.data(), credentials.privateKey.size());
        if (auto status = sources.change(source); !status) return status;
    }
    return Status::success();
}

}  // namespace

Result<std::unique_ptr<PullRuntime>> PullRuntime::open(const std::string& dataDir, Storage& storage, const ServerKeys& keys,
                                                       const std::vector<std::string>& allowList, FetchLimits limits,
                                                       PluginPullLimits pluginLimits, CatalogChanged* catalogChanged, BlobStore* files) {
    auto policy = AddressPolicy::withAllowList(allowList);
    if (!policy) return Error::invalidArgument("--outbound-allow: " + policy.error().message);
    auto cipher = CredentialCipher::loadOrCreate(dataDir);
    if (!cipher) return cipher.error();
    if (auto sealed = sealUrlQueries(storage.pullSources(), *cipher); !sealed) return sealed.error();
    auto runtime = std::unique_ptr<PullRuntime>(new PullRuntime(*cipher));
    runtime->fetcher_ = std::make_unique<OutboundFetcher>(std::move(*policy), limits);
    runtime->sources_ = &storage.pullSources();
    if (!files) {
        runtime->ownFiles_ = std::make_unique<EncryptedFileBlobStore>(dataDir + "/uploads", keys.fileEncryptionKey());
        files = runtime->ownFiles_.get();
    }
    runtime->imports_ = std::make_unique<FeedImportService>(storage.catalog(), storage.imports(), *files, storage.clock());
    if (!catalogChanged) {
        runtime->ownCatalogChanged_ = std::make_unique<CatalogChanged>(storage.content());
        catalogChanged = runtime->ownCatalogChanged_.get();
    }
    catalogChanged->publishFrom(*runtime->imports_);
    runtime->puller_ = std::make_unique<FeedPuller>(*runtime->fetcher_, runtime->cipher_, *runtime->imports_, storage.imports(),
                                                    storage.tenants(), storage.clock(), (std::filesystem::path(dataDir) / "pulls").string());
    runtime->registrations_ = &storage.shopRegistrations();
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
