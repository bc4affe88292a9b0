#pragma once
// Everything a process needs to pull feeds, wired once: the credential cipher, the outbound
// fetcher with the operator's allow-list, the pull sources, the puller and the scheduler.
// Used by `serve` (scheduled pulls), by `feed source ...` and by the tests.
#include <memory>
#include <string>
#include <vector>

#include "feed/CatalogChanged.hpp"
#include "feed/FeedImportService.hpp"
#include "feed/FeedPuller.hpp"
#include "feed/PullScheduler.hpp"
#include "feed/ShopPluginPuller.hpp"
#include "net/CredentialCipher.hpp"
#include "net/OutboundFetcher.hpp"
#include "security/ServerKeys.hpp"
#include "store/EncryptedFileBlobStore.hpp"
#include "store/Storage.hpp"

namespace svc {

class PullRuntime {
public:
    // `allowList`: hosts and networks the SSRF guard lets through (AddressPolicy); the error names the bad entry.
    // Pulled imports are published to `catalogChanged` (serve: the services' event, so they reach
    // this server's content like pushes); without one, to an event of the runtime's own that only
    // tells running servers through the content generation. Pulled bodies are kept in `files`
    // (serve: the services' blob store, docs/adr/0090); without one, in the data dir's uploads.
    static Result<std::unique_ptr<PullRuntime>> open(const std::string& dataDir, Storage& storage, const ServerKeys& keys,
                                                     const std::vector<std::string>& allowList, FetchLimits limits = {},
                                                     PluginPullLimits pluginLimits = {}, CatalogChanged* catalogChanged = nullptr,
                                                     BlobStore* files = nullptr);

    const CredentialCipher& cipher() const { return cipher_; }
    PullSourceStore& sources() { return *sources_; }
    FeedImportService& imports() { return *imports_; }
    FeedPuller& puller() { return *puller_; }
    PullScheduler& scheduler() { return *scheduler_; }
    const OutboundFetcher& fetcher() const { return *fetcher_; }
    ShopRegistrationStore& registrations() { return *registrations_; }
    ShopPluginPuller& plugins() { return *plugins_; }

private:
    PullRuntime(CredentialCipher cipher) : cipher_(cipher) {}

    CredentialCipher cipher_;
    std::unique_ptr<CatalogChanged> ownCatalogChanged_;  // when open() was given none
    std::unique_ptr<OutboundFetcher> fetcher_;
    PullSourceStore* sources_ = nullptr;
    std::unique_ptr<EncryptedFileBlobStore> ownFiles_;  // when open() was given none
    std::unique_ptr<FeedImportService> imports_;
    ShopRegistrationStore* registrations_ = nullptr;
    std::unique_ptr<ShopPluginPuller> plugins_;
    std::unique_ptr<FeedPuller> puller_;
    std::unique_ptr<PullScheduler> scheduler_;
};

}  // namespace svc
