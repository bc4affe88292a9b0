#pragma once
// Every way a feed reaches the catalog (CLI file, push upload, later pulls) goes
// through here: history record, atomic import, the truncated-feed guard, dry runs,
// and confirming or discarding held imports.
#include <functional>
#include <memory>
#include <string>

#include "core/Clock.hpp"
#include "feed/FeedImportRecord.hpp"
#include "feed/FeedImporter.hpp"
#include "store/BlobStore.hpp"
#include "store/CatalogStore.hpp"
#include "store/FeedImportStore.hpp"
#include "tenant/Tenant.hpp"

namespace svc {

class ServiceMetrics;

struct ImportOutcome {
    FeedImportRecord record;  // as stored in the history (id 0 for a dry run)
    FeedImportReport report;  // what was (or, for held imports and dry runs, would be) changed
};

class FeedImportService {
public:
    using SourceOpener = std::function<Result<std::unique_ptr<BlobReader>>()>;

    FeedImportService(CatalogStore& catalog, FeedImportStore& history, BlobStore& files, const Clock& clock)
        : catalog_(catalog), history_(history), files_(files), clock_(clock) {}

    // Imports a local file now. `force` applies a full feed even past the delete-share guard.
    Result<ImportOutcome> importFile(const Tenant& tenant, const std::string& path, const FeedImportOptions& options,
                                     const std::string& source, bool force = false, const std::string& feed = "default");
    // Imports a pulled file now, keeping a copy in the blob store first, so that another node can run
    // it again should this one stop during the import (ImportWorker's requeue). `refusedBeforeTheFile`:
    // rows the puller refused before writing the file (a shop plugin's products), counted and listed
    // first in the import's one final record.
    Result<ImportOutcome> importPulled(const Tenant& tenant, const std::string& path, const FeedImportOptions& options,
                                       const std::string& source, const std::string& feed,
                                       std::vector<RowError> refusedBeforeTheFile = {});
    // What importing the file would change, without changing anything or recording history.
    Result<ImportOutcome> dryRunFile(const Tenant& tenant, const std::string& path, const FeedImportOptions& options);
    // A dry run of a file in the blob store (HTTP dry runs are spooled there, not held in memory).
    Result<ImportOutcome> dryRunStored(const Tenant& tenant, const std::string& fileKey, const FeedImportOptions& options);
    // Runs an import whose file is in the blob store (queued push uploads; the worker calls this).
    Result<ImportOutcome> runStored(const Tenant& tenant, FeedImportRecord record, bool force = false);
    // Applies a held import; refuses one that is not held.
    Result<ImportOutcome> confirm(const Tenant& tenant, int64_t importId);
    Result<FeedImportRecord> discard(const Tenant& tenant, int64_t importId);
    // Called after every applied import with the tenant's id and what the import changed
    // (content is rebuilt from it: the change lets the engine read just those articles).
    using AppliedListener = std::function<void(int64_t tenantId, CatalogChange change)>;
    void setAppliedListener(AppliedListener listener) { appliedListener_ = std::move(listener); }
    // Every import's end is reported here (duration, outcome, rows); set before imports run.
    void setMetrics(ServiceMetrics* metrics) { metrics_ = metrics; }

private:
    Result<ImportOutcome> run(const Tenant& tenant, const SourceOpener& open, FeedImportRecord record, bool dryRun, bool force,
                              const std::vector<RowError>& refusedBeforeTheFile = {});
    Result<FeedImportRecord> findHeld(const Tenant& tenant, int64_t importId, const char* action);
    Status keepFile(const SourceOpener& open, FeedImportRecord& record);
    // Reads the whole source through the importer, parsing on a second thread.
    Status pipeline(BlobReader& source, FeedParser& parser, FeedImporter& importer);

    CatalogStore& catalog_;
    FeedImportStore& history_;
    BlobStore& files_;
    const Clock& clock_;
    AppliedListener appliedListener_;
    ServiceMetrics* metrics_ = nullptr;
};

}  // namespace svc
