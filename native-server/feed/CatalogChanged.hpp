#pragma once
// The one "catalog changed" event: every applied import of a process (pushes, the import worker,
// scheduled pulls, CLI imports) is published here once, and whatever must follow a change
// subscribes (the content index rebuilds, the image bot queues a scan). Other processes learn of
// it through the tenant's content generation, bumped after the subscribers have the change, so a
// rebuild the generation triggers finds the change and reads just the changed articles.
#include <functional>
#include <vector>

#include "feed/FeedImportService.hpp"
#include "store/ContentStore.hpp"

namespace svc {

class CatalogChanged {
public:
    using Subscriber = std::function<void(int64_t tenantId, const CatalogChange& change)>;

    explicit CatalogChanged(ContentStore& generations) : generations_(generations) {}
    CatalogChanged(const CatalogChanged&) = delete;
    CatalogChanged& operator=(const CatalogChanged&) = delete;

    // Subscribers are added while the process is composed, before any import runs; they are
    // called in the order they subscribed, on the importing thread.
    void subscribe(Subscriber subscriber) { subscribers_.push_back(std::move(subscriber)); }
    // `imports` publishes every import it applies here.
    void publishFrom(FeedImportService& imports) {
        imports.setAppliedListener([this](int64_t tenantId, CatalogChange change) { publish(tenantId, change); });
    }
    void publish(int64_t tenantId, const CatalogChange& change) {
        for (const auto& subscriber : subscribers_) subscriber(tenantId, change);
        (void)generations_.bumpGeneration(tenantId);
    }

private:
    ContentStore& generations_;
    std::vector<Subscriber> subscribers_;
};

}  // namespace svc
