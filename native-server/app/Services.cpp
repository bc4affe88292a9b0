#include "app/Services.hpp"

#include <cstdlib>

#include "log/Log.hpp"
#include "security/CursorTags.hpp"
#include "store/LeaseOwner.hpp"

namespace svc {
namespace {

constexpr int64_t kExpirySweepSeconds = 300;
constexpr int64_t kRetentionSeconds = 86400;

}  // namespace

Services::Services(Storage& storage, const ServerKeys& keys, const ServerOptions& options)
    : storage_(storage),
      catalogChanged_(storage.content()),
      tenants_(storage.tenants()),
      contentIndex_(storage.catalog(), storage.content(), &storage.events(), storage.clock(), options.content),
      recommendations_(contentIndex_),
      cursors_(hmacCursorTags(keys.cursorSigningKey())),
      graphql_(recommendations_, cursors_, options.graphql.limits),
      blobs_(options.dataDir, options.blobBucket, keys.fileEncryptionKey()),
      signer_(keys.uploadSigningKey()),
      imports_(storage.catalog(), storage.imports(), blobs_.uploads(), storage.clock()),
      worker_(imports_, storage.imports(), storage.tenants(), storage.clock()),
      attributionCatalog_(storage.catalog(), storage.content(), &recommendations_),
      leader_(storage.leases(), storage.clock(), LeaseOwner::ofThisProcess()),
      attributor_(storage.ledger(), storage.tenants(), attributionCatalog_, storage.clock()) {
    if (options.imageBot) {
        ImageBotOptions botOptions = *options.imageBot;
        if (botOptions.dataDir.empty()) botOptions.dataDir = options.dataDir;
        botOptions.thumbnails = blobs_.thumbnails();
        if (auto bot = ImageBot::open(std::move(botOptions), storage.catalog(), storage.tenants(), storage.imageFacts(), storage.leases(), storage.clock())) {
            imageBot_ = std::move(*bot);
        } else {
            Log::warn("image bot off: " + bot.error().message);
        }
    }
    // The content is rebuilt after every applied import (the change handed over, so the rebuild
    // reads just the changed articles); the image bot only queues a scan.
    catalogChanged_.subscribe([this](int64_t tenantId, const CatalogChange& change) { contentIndex_.catalogChanged(tenantId, change); });
    if (imageBot_) catalogChanged_.subscribe([this](int64_t tenantId, const CatalogChange&) { imageBot_->catalogChanged(tenantId); });
    catalogChanged_.publishFrom(imports_);
    imports_.setMetrics(&metrics_);
    contentIndex_.setMetrics(&metrics_);
    contentIndex_.setCategoryMappings(&storage.categoryMappings());
    // Builds read the recorded lowest 30-day prices with the products; answers read no database (ADR 0080).
    contentIndex_.setLowestPrices([&prices = storage.priceHistory()](int64_t tenantId, const std::vector<std::string>& skus) {
        return prices.lowestBeforeCurrentPrice(tenantId, skus);
    });
    // What must happen once for the whole cluster runs on its leader (docs/adr/0092).
    leader_.addJob({"expire operator sessions and set previews", kExpirySweepSeconds, [&storage] {
                        int64_t now = storage.clock().nowSeconds();
                        if (auto status = storage.operators().deleteExpiredSessions(now); !status) return status;
                        return storage.operators().deleteExpiredSetPreviews(now);
                    }});
    // Rate-limit buckets that filled up again behave as new ones: forgotten (docs/adr/0094).
    leader_.addJob({"forget full rate-limit buckets", kExpirySweepSeconds, [&storage]() -> Status {
                        auto forgotten = storage.rateLimits().forgetFull(storage.clock().nowMillis());
                        if (!forgotten) return forgotten.error();
                        return Status::success();
                    }});
    leader_.addJob({"retention of interactions", kRetentionSeconds, [&storage]() -> Status {
                        auto dropped = storage.events().dropExpiredInteractions(storage.clock().nowSeconds());
                        if (!dropped) return dropped.error();
                        if (*dropped > 0) Log::info("leader: retention dropped " + std::to_string(*dropped) + " day(s) of interactions");
                        return Status::success();
                    }});
    leader_.start();
    contentIndex_.start();
    worker_.start();
    attributor_.start(2000, [this] { return leader_.leading(); });
    if (imageBot_) imageBot_->start();
    // On a cluster every node learns at once what another changed; the poll of the content
    // generations stays as the fallback (and covers notifications lost while reconnecting).
    if (!options.databaseUrl.empty()) {
        changes_ = std::make_unique<PgChangeListener>(options.databaseUrl, [this](const std::string& channel, const std::string& payload) {
            if (channel == "svc_content" || channel.empty()) contentIndex_.pollNow();
            if (channel == "svc_settings") {
                char* end = nullptr;
                long long tenantId = std::strtoll(payload.c_str(), &end, 10);
                if (end && *end == '\0') {
                    storage_.tenants().changedElsewhere(tenantId);
                    std::lock_guard lock(settingsMutex_);
                    for (const auto& subscriber : settingsSubscribers_) subscriber(tenantId);
                }
            }
        });
        changes_->start();
    }
}

Services::~Services() {
    if (changes_) changes_->stop();
    if (imageBot_) imageBot_->stop();
    attributor_.stop();
    leader_.stop();  // released: another node takes over at its next round, not after the lease's time
    worker_.stop();
    contentIndex_.stop();
}

}  // namespace svc
