#include "feed/FeedFileImport.hpp"

#include <fstream>
#include <vector>

namespace svc {

Result<FeedImportReport> importFeedFile(CatalogStore& catalog, int64_t tenantId, const std::string& path,
                                        const FeedImportOptions& options) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return Error::notFound("feed file " + path + ": cannot be opened");
    auto import = catalog.beginImport(tenantId);
    if (!import) return import.error();
    FeedImporter importer(**import, options);
    std::vector<char> buffer(1 << 16);
    while (file) {
        file.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        std::streamsize got = file.gcount();
        if (got <= 0) break;
        if (auto status = importer.feed(std::string_view(buffer.data(), static_cast<size_t>(got))); !status) {
            return Error{status.error().code, path + ": " + status.error().message};
        }
    }
    if (file.bad()) return Error::unavailable("feed file " + path + ": read error");
    auto report = importer.finish();
    if (!report) return Error{report.error().code, path + ": " + report.error().message};
    return report;
}

}  // namespace svc
