#include "feed/FeedImportService.hpp"
#include "log/Log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <cstring>
#include <vector>

#include "metrics/ServiceMetrics.hpp"

namespace svc {
namespace {

constexpr size_t kReadChunk = 1 << 16;

// A plain local file as a byte source.
class FileReader : public BlobReader {
public:
    explicit FileReader(int fd) : fd_(fd) {}
    ~FileReader() override { ::close(fd_); }
    Result<size_t> read(char* buffer, size_t capacity) override {
        while (true) {
            ssize_t got = ::read(fd_, buffer, capacity);
            if (got >= 0) return static_cast<size_t>(got);
            if (errno != EINTR) return Error::unavailable(std::string("read error: ") + std::strerror(errno));
        }
    }

private:
    int fd_;
};

// Rows travel from the parsing thread to the writing thread in batches; a few batches
// in flight keep both cores busy while memory stays bounded.
constexpr size_t kBatchRows = 1024;
constexpr size_t kBatchesInFlight = 8;

FeedImportService::SourceOpener fileOpener(const std::string& path) {
    return [path]() -> Result<std::unique_ptr<BlobReader>> {
        int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) return Error::notFound("feed file " + path + ": " + std::strerror(errno));
        return std::unique_ptr<BlobReader>(std::make_unique<FileReader>(fd));
    };
}

FeedImportRecord newRecord(const Tenant& tenant, const FeedImportOptions& options, const std::string& source, int64_t now) {
    FeedImportRecord record;
    record.tenantId = tenant.id;
    record.source = source;
    record.delta = options.delta;
    record.identifier = options.identifier;
    record.delimiter = options.delimiter;
    record.feed = options.feed;
    record.createdAt = now;
    return record;
}

FeedImportOptions optionsOf(const FeedImportRecord& record) {
    FeedImportOptions options;
    options.delta = record.delta;
    options.identifier = record.identifier;
    options.delimiter = record.delimiter;
    options.feed = record.feed;
    return options;
}

// The report into the record; rows refused before the file was written (a shop plugin's) count as
// rows read and rejected, and are listed first.
void copyReport(const FeedImportReport& report, const std::vector<RowError>& refusedBeforeTheFile, FeedImportRecord& record) {
    auto refused = static_cast<int64_t>(refusedBeforeTheFile.size());
    record.rowsRead = report.rowsRead + refused;
    record.rejected = report.rejected + refused;
    record.counts = report.counts;
    record.rowErrors = refusedBeforeTheFile;
    record.rowErrors.insert(record.rowErrors.end(), report.errors.begin(), report.errors.end());
    if (record.rowErrors.size() > FeedImportReport::kMaxReportedErrors) record.rowErrors.resize(FeedImportReport::kMaxReportedErrors);
    record.warnings = report.warnings;
    record.describesProducts = report.describesProducts;
}

}  // namespace

Status FeedImportService::pipeline(BlobReader& source, FeedParser& parser, FeedImporter& importer) {
    // Stage one (reading, CSV, mapping, duplicates) runs on its own thread; stage two (SQLite) here.
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<std::vector<MappedRow>> queue;
    // Applied batches go back to the parsing thread, which reuses their products for later
    // rows (FeedParser::recycle): neither thread frees and allocates a product per row.
    std::deque<std::vector<MappedRow>> applied;
    bool parsingDone = false;
    bool stopParsing = false;
    std::optional<Error> parseError;

    std::thread parsing([&] {
        std::vector<char> buffer(kReadChunk);
        std::vector<MappedRow> batch;
        auto hand = [&](bool last) {
            if (batch.size() < kBatchRows && !(last && !batch.empty())) return true;
            std::vector<MappedRow> recycled;
            {
                std::unique_lock lock(mutex);
                changed.wait(lock, [&] { return queue.size() < kBatchesInFlight || stopParsing; });
                if (stopParsing) return false;
                queue.push_back(std::move(batch));
                if (!applied.empty()) {
                    recycled = std::move(applied.front());
                    applied.pop_front();
                }
                changed.notify_all();
            }
            parser.recycle(recycled);  // outside the lock
            batch = std::move(recycled);
            return true;
        };
        std::optional<Error> error;
        while (true) {
            auto got = source.read(buffer.data(), buffer.size());
            if (!got) {
                error = got.error();
                break;
            }
            if (*got == 0) {
                if (auto status = parser.finish(batch); !status) error = status.error();
                else hand(true);
                break;
            }
            if (auto status = parser.parse(std::string_view(buffer.data(), *got), batch); !status) {
                error = status.error();
                break;
            }
            if (!hand(false)) break;
        }
        std::lock_guard lock(mutex);
        parseError = error;
        parsingDone = true;
        changed.notify_all();
    });

    std::optional<Error> applyError;
    while (true) {
        std::vector<MappedRow> batch;
        {
            std::unique_lock lock(mutex);
            changed.wait(lock, [&] { return !queue.empty() || parsingDone; });
            if (queue.empty()) break;
            batch = std::move(queue.front());
            queue.pop_front();
            changed.notify_all();
        }
        // The parser publishes its mapper before the first batch, under the mutex.
        if (auto status = importer.apply(batch, *parser.mapper()); !status) {
            applyError = status.error();
            std::lock_guard lock(mutex);
            stopParsing = true;
            changed.notify_all();
            break;
        }
        std::lock_guard lock(mutex);
        if (applied.size() < kBatchesInFlight) applied.push_back(std::move(batch));
    }
    parsing.join();
    if (parseError) return *parseError;
    if (applyError) return *applyError;
    return Status::success();
}

Status FeedImportService::keepFile(const SourceOpener& open, FeedImportRecord& record) {
    if (!record.fileKey.empty()) return Status::success();
    auto source = open();
    if (!source) return source.error();
    std::string key = "import-" + std::to_string(record.id) + ".csv";
    auto writer = files_.create(key);
    if (!writer) return writer.error();
    std::vector<char> buffer(kReadChunk);
    while (true) {
        auto got = (*source)->read(buffer.data(), buffer.size());
        if (!got) return got.error();
        if (*got == 0) break;
        if (auto status = (*writer)->write(std::string_view(buffer.data(), *got)); !status) return status;
    }
    if (auto status = (*writer)->commit(); !status) return status;
    record.fileKey = key;
    return Status::success();
}

Result<ImportOutcome> FeedImportService::run(const Tenant& tenant, const SourceOpener& open, FeedImportRecord record, bool dryRun,
                                             bool force, const std::vector<RowError>& refusedBeforeTheFile) {
    int64_t now = clock_.nowSeconds();
    auto started = std::chrono::steady_clock::now();
    auto reportEnd = [&](const FeedImportRecord& ended) {
        if (dryRun || !metrics_) return;
        metrics_->importFinished(ended.source, ended.status, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(),
                                 ended.rowsRead, ended.rejected);
    };
    if (!dryRun) {
        record.status = ImportStatus::Running;
        record.startedAt = now;
        if (record.id == 0) {
            auto id = history_.create(record);
            if (!id) return id.error();
            record.id = *id;
        }
        if (auto status = history_.update(record); !status) return status.error();
    }
    ImportOutcome outcome;
    // Any failure below leaves the catalog untouched (the import's transaction rolls back)
    // and is recorded in the history with its reason.
    // Ends the import for good: the stored file is no longer needed, the history says why.
    auto conclude = [&](ImportStatus status, const std::string& message) -> Result<ImportOutcome> {
        record.status = status;
        record.message = message;
        record.finishedAt = clock_.nowSeconds();
        if (!record.fileKey.empty()) (void)files_.remove(record.fileKey);
        record.fileKey.clear();
        reportEnd(record);
        if (auto stored = history_.update(record); !stored) return stored.error();
        outcome.record = record;
        return outcome;
    };
    auto fail = [&](const Error& error) -> Result<ImportOutcome> {
        if (dryRun) return error;
        return conclude(ImportStatus::Failed, error.message);
    };

    auto source = open();
    if (!source) return fail(source.error());
    auto import = catalog_.beginImport(tenant.id, now, record.feed);
    if (!import) return fail(import.error());
    FeedImporter importer(**import, optionsOf(record));
    FeedParser parser(optionsOf(record));
    if (auto status = pipeline(**source, parser, importer); !status) return fail(status.error());
    auto summary = importer.summarize(parser.listedSkus());
    if (!summary) {
        // The history keeps the rows read so far, which explains most refusals.
        return fail(summary.error());
    }
    outcome.report = *summary;
    copyReport(*summary, refusedBeforeTheFile, record);
    if (dryRun) {
        outcome.record = record;
        return outcome;  // the import is dropped unapplied here
    }
    if (!force && exceedsDeleteShare(*summary, record.delta, tenant.maxDeleteShare)) {
        import->reset();  // roll back before copying the file: do not hold the write lock longer than needed
        if (auto status = keepFile(open, record); !status) return fail(status.error());
        record.status = ImportStatus::Held;
        record.message = "held: this full feed would mark " + std::to_string(summary->counts.markedDeleted) + " of " +
                         std::to_string(summary->liveBefore) + " products deleted, more than the allowed " +
                         std::to_string(static_cast<int>(tenant.maxDeleteShare * 100 + 0.5)) +
                         "%; confirm it to apply, or discard it";
        record.finishedAt = clock_.nowSeconds();
        reportEnd(record);
        if (auto status = history_.update(record); !status) return status.error();
        outcome.record = record;
        return outcome;
    }
    auto counts = (*import)->commit(record.delta ? nullptr : &parser.listedSkus());
    if (!counts) return fail(counts.error());
    if (appliedListener_) appliedListener_(tenant.id, (*import)->takeChange());
    record.counts = *counts;
    outcome.report.counts = *counts;
    // The catalog's size after this import, for the console's chart (docs/adr/0044); a
    // failed count only leaves a gap in the chart, never fails an applied import.
    if (auto stats = catalog_.stats(tenant.id)) record.catalogProducts = stats->products;
    return conclude(ImportStatus::Applied, "");
}

Result<ImportOutcome> FeedImportService::importFile(const Tenant& tenant, const std::string& path, const FeedImportOptions& options,
                                                    const std::string& source, bool force, const std::string& feed) {
    if (auto valid = validateFeedName(feed, "feed"); !valid) return valid.error();
    FeedImportRecord record = newRecord(tenant, options, source, clock_.nowSeconds());
    record.feed = feed;
    return run(tenant, fileOpener(path), std::move(record), false, force);
}

Result<ImportOutcome> FeedImportService::importPulled(const Tenant& tenant, const std::string& path, const FeedImportOptions& options,
                                                      const std::string& source, const std::string& feed,
                                                      std::vector<RowError> refusedBeforeTheFile) {
    if (auto valid = validateFeedName(feed, "feed"); !valid) return valid.error();
    FeedImportRecord record = newRecord(tenant, options, source, clock_.nowSeconds());
    record.feed = feed;
    record.status = ImportStatus::Running;  // created with this process's lease (FeedImportStore::create)
    auto id = history_.create(record);
    if (!id) return id.error();
    record.id = *id;
    // The body goes to the blob store before the import starts: should this process die mid-import,
    // another node's requeue runs it again from there (docs/adr/0091). Without it the import still
    // runs; it just could not be taken over.
    if (auto kept = keepFile(fileOpener(path), record); !kept) {
        Log::warn("import " + std::to_string(record.id) + ": the pulled file was not kept (" + kept.error().message +
                      "); it runs, but cannot be requeued should this node stop during it",
                  std::to_string(tenant.id));
    }
    return run(tenant, fileOpener(path), std::move(record), false, false, refusedBeforeTheFile);
}

Result<ImportOutcome> FeedImportService::dryRunFile(const Tenant& tenant, const std::string& path, const FeedImportOptions& options) {
    return run(tenant, fileOpener(path), newRecord(tenant, options, "validate", clock_.nowSeconds()), true, false);
}

Result<ImportOutcome> FeedImportService::dryRunStored(const Tenant& tenant, const std::string& fileKey, const FeedImportOptions& options) {
    SourceOpener open = [this, fileKey]() { return files_.open(fileKey); };
    return run(tenant, open, newRecord(tenant, options, "validate", clock_.nowSeconds()), true, false);
}

Result<ImportOutcome> FeedImportService::runStored(const Tenant& tenant, FeedImportRecord record, bool force) {
    std::string key = record.fileKey;
    SourceOpener open = [this, key]() { return files_.open(key); };
    return run(tenant, open, std::move(record), false, force);
}

Result<FeedImportRecord> FeedImportService::findHeld(const Tenant& tenant, int64_t importId, const char* action) {
    auto record = history_.find(tenant.id, importId);
    if (!record) return record.error();
    if (!*record) return Error::notFound("import " + std::to_string(importId) + " does not exist");
    if ((*record)->status != ImportStatus::Held) {
        return Error::invalidArgument("import " + std::to_string(importId) + " is " + std::string(importStatusName((*record)->status)) +
                                      "; only held imports can be " + action);
    }
    return **record;
}

Result<ImportOutcome> FeedImportService::confirm(const Tenant& tenant, int64_t importId) {
    auto record = findHeld(tenant, importId, "confirmed");
    if (!record) return record.error();
    record->message.clear();
    return runStored(tenant, std::move(*record), /*force=*/true);
}

Result<FeedImportRecord> FeedImportService::discard(const Tenant& tenant, int64_t importId) {
    auto record = findHeld(tenant, importId, "discarded");
    if (!record) return record.error();
    (void)files_.remove(record->fileKey);
    record->fileKey.clear();
    record->status = ImportStatus::Discarded;
    record->message = "discarded by the operator";
    record->finishedAt = clock_.nowSeconds();
    if (auto status = history_.update(*record); !status) return status.error();
    return *record;
}

}  // namespace svc
