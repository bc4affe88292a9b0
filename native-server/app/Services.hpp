#pragma once
// The composition root (docs/adr/0079): the long-lived services of one svc process, built once
// from storage, keys and the serve options, and used by `serve`, the server tests and the
// benchmarks. It owns the background workers (content index rebuilds, the import worker, the
// attributor, the image bot, the cluster's leader and its jobs): they start when it is built and
// stop when it is destroyed, after the HTTP server that uses them.
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "app/LeaderElection.hpp"
#include "feed/CatalogChanged.hpp"
#include "feed/FeedImportService.hpp"
#include "feed/ImportWorker.hpp"
#include "feed/UploadSigner.hpp"
#include "graphql/Cursor.hpp"
#include "graphql/GraphqlService.hpp"
#include "http/ServerOptions.hpp"
#include "imagebot/ImageBot.hpp"
#include "metrics/ServiceMetrics.hpp"
#include "recommend/ContentIndex.hpp"
#include "recommend/RecommendationService.hpp"
#include "recommend/WidgetContentService.hpp"
#include "security/ServerKeys.hpp"
#include "store/BlobStores.hpp"
#include "store/PgChangeListener.hpp"
#include "store/Storage.hpp"
#include "tenant/TenantService.hpp"
#include "tracking/AttributionCatalog.hpp"
#include "tracking/Attributor.hpp"

namespace svc {

class Services {
public:
    // Uses options.dataDir, blobBucket, content, graphql.limits and imageBot.
    Services(Storage& storage, const ServerKeys& keys, const ServerOptions& options);
    ~Services();
    Services(const Services&) = delete;
    Services& operator=(const Services&) = delete;

    Storage& storage() { return storage_; }
    const Clock& clock() const { return storage_.clock(); }
    // Everything reports here (imports, rebuilds, the event writer, scheduled pulls); /metrics renders it.
    ServiceMetrics& metrics() { return metrics_; }
    // Every applied import of this process is published here (pulls and pushes alike).
    CatalogChanged& catalogChanged() { return catalogChanged_; }
    TenantService& tenants() { return tenants_; }
    ContentIndex& contentIndex() { return contentIndex_; }
    RecommendationService& recommendations() { return recommendations_; }
    graphql::GraphqlService& graphql() { return graphql_; }
    BlobStore& files() { return blobs_.uploads(); }
    BlobStores& blobs() { return blobs_; }  // the data dir's or the shared bucket's (options.blobBucket)
    const UploadSigner& signer() const { return signer_; }
    FeedImportService& imports() { return imports_; }
    ImportWorker& worker() { return worker_; }
    Attributor& attributor() { return attributor_; }
    LeaderElection& leader() { return leader_; }
    ImageBot* imageBot() { return imageBot_.get(); }  // null when off or when it could not open
    // Called with a tenant id when another node changed that tenant's record or widget settings
    // (PostgreSQL only).
    void onSettingsChanged(std::function<void(int64_t tenantId)> subscriber) {
        std::lock_guard lock(settingsMutex_);
        settingsSubscribers_.push_back(std::move(subscriber));
    }

private:
    // First: everything below reports into it until destroyed.
    ServiceMetrics metrics_;
    Storage& storage_;
    CatalogChanged catalogChanged_;
    TenantService tenants_;
    ContentIndex contentIndex_;
    RecommendationService recommendations_;
    graphql::CursorCodec cursors_;
    graphql::GraphqlService graphql_;
    BlobStores blobs_;
    UploadSigner signer_;
    FeedImportService imports_;
    ImportWorker worker_;
    AttributionCatalog attributionCatalog_;
    LeaderElection leader_;  // before the attributor: its passes ask it
    Attributor attributor_;
    std::unique_ptr<ImageBot> imageBot_;
    std::mutex settingsMutex_;  // the listener's thread reads the subscribers while ApiServer adds one
    std::vector<std::function<void(int64_t)>> settingsSubscribers_;
    // Last: stopped first, so no notification reaches a service being destroyed.
    std::unique_ptr<PgChangeListener> changes_;
};

}  // namespace svc
