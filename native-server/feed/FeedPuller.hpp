#pragma once
// One pull of one source: fetch the file (conditionally, with the validators of the last
// imported one), check its format, and import it through FeedImportService like a push.
// Every attempt that fetched a file, or failed, is an entry of the tenant's import history
// with the source ("pull <url>") and the reason; an unchanged file (304) is only noted on the source.
#include <memory>
#include <string>

#include "core/Clock.hpp"
#include "feed/FeedImportService.hpp"
#include "feed/PullSource.hpp"
#include "net/CredentialCipher.hpp"
#include "net/OutboundFetcher.hpp"
#include "store/FeedImportStore.hpp"
#include "store/TenantStore.hpp"

namespace svc {

class ShopPluginPuller;

enum class PullResult { Imported, Unchanged, Failed };

struct PullOutcome {
    PullResult result = PullResult::Failed;
    FeedImportRecord record;  // the history entry (id 0 when the file was unchanged)
    PullSource source;        // with the new validators and last result (not yet stored)
};

// A pull that failed before (or instead of) an import, as the history shows it: `record` comes
// with what the caller knows (source label, delta, identifier); status, times and message are set
// here, and the source's last result says why. Shared by file and shop-plugin pulls.
Result<PullOutcome> recordPullFailure(FeedImportStore& history, int64_t now, PullSource source, FeedImportRecord record,
                                      const std::string& reason);

class FeedPuller {
public:
    FeedPuller(const OutboundFetcher& fetcher, const CredentialCipher& cipher, FeedImportService& imports, FeedImportStore& history,
               TenantStore& tenants, const Clock& clock, std::string spoolDir)
        : fetcher_(fetcher), cipher_(cipher), imports_(imports), history_(history), tenants_(tenants), clock_(clock),
          spoolDir_(std::move(spoolDir)) {}

    // Errors only when the history itself cannot be written; a failed pull is a Failed outcome.
    // Sources of kind "plugin" are handed to the shop plugin puller (docs/adr/0035).
    Result<PullOutcome> pull(PullSource source);
    void setPluginPuller(ShopPluginPuller* plugins) { plugins_ = plugins; }

    // The associated data that binds sealed credentials to their tenant and feed.
    static std::string credentialOwner(int64_t tenantId, const std::string& feed);

private:
    Result<PullOutcome> recordFailure(PullSource source, const std::string& reason);

    const OutboundFetcher& fetcher_;
    const CredentialCipher& cipher_;
    FeedImportService& imports_;
    FeedImportStore& history_;
    TenantStore& tenants_;
    const Clock& clock_;
    std::string spoolDir_;
    ShopPluginPuller* plugins_ = nullptr;
};

// The feed format an (S)FTP file name announces: .csv or .csv.gz (case-insensitive; query ignored).
enum class FileFormat { Csv, CsvGzip, Unknown };
FileFormat feedFormatFromFileName(const std::string& url);

// The feed format a Content-Type announces: success for CSV, otherwise the reason naming the type.
Status checkFeedContentType(const std::string& contentType);

}  // namespace svc
