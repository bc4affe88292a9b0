#include "feed/ShopPluginPuller.hpp"

#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "feed/CsvWriter.hpp"
#include "feed/PluginProductMapper.hpp"
#include "store/PrivateFiles.hpp"
#include "text/BoundedJson.hpp"

namespace svc {

using nlohmann::json;

// The requests of one pull: the two headers, the spool file answers land in, and whether the
// plugin answered at all (for the operators' "last contact").
struct ShopPluginPuller::Call {
    const OutboundFetcher& fetcher;
    std::vector<std::string> headers;
    std::string bodyPath;
    long timeoutMs = 0;
    int64_t contactAt = 0;
    int64_t now = 0;

    ~Call() { ::unlink(bodyPath.c_str()); }

    std::string readBody(size_t maxBytes) const {
        std::ifstream file(bodyPath, std::ios::binary);
        std::string body(maxBytes, '\0');
        file.read(body.data(), static_cast<std::streamsize>(maxBytes));
        body.resize(static_cast<size_t>(file.gcount()));
        return body;
    }

    // GETs `url` and parses its JSON; the error names the endpoint and, for an error answer,
    // carries the plugin's own {error, message}.
    Result<json> get(const std::string& url, const std::string& endpoint, int64_t maxBytes) {
        FetchRequest request;
        request.url = url;
        request.headers = headers;
        request.bodyPath = bodyPath;
        request.totalTimeoutMs = timeoutMs;
        request.maxBodyBytes = maxBytes;
        auto response = fetcher.fetch(request);
        if (!response) {
            std::string reason = endpoint + ": " + response.error().message;
            // Statuses mean the plugin answered; its body may say why (AUTH_ERROR, CONFIGURATION_ERROR, ...).
            auto failedAs = [&](FetchFailure kind) { return response.error().message.rfind(std::string(fetchFailureName(kind)) + ":", 0) == 0; };
            bool answered = failedAs(FetchFailure::Auth) || failedAs(FetchFailure::NotFound) || failedAs(FetchFailure::HttpStatus) ||
                            failedAs(FetchFailure::Redirects);
            if (answered) {
                contactAt = now;
                auto errorAnswer = BoundedJson::parse(readBody(64 * 1024), endpoint);
                std::string text = errorAnswer ? pluginErrorText(*errorAnswer) : "";
                if (!text.empty()) reason += " (" + text + ")";
            }
            return Error{response.error().code, reason};
        }
        contactAt = now;
        // The fetcher already stopped at maxBytes; the depth is JsonLimits' like every other JSON text.
        auto answer = BoundedJson::parse(readBody(static_cast<size_t>(response->bodyBytes)), endpoint + " answer",
                                         JsonLimits{JsonLimits::kDefaultMaxDepth, static_cast<size_t>(maxBytes)});
        if (!answer) return answer.error();
        if (std::string text = pluginErrorText(*answer); !text.empty()) return Error::unavailable(endpoint + ": " + text);
        return answer;
    }
};

namespace {

std::string pageUrl(const std::string& productsUrl, int64_t limit, int64_t offset, bool delta) {
    size_t fragment = productsUrl.find('#');
    std::string base = productsUrl.substr(0, fragment);
    base += base.find('?') == std::string::npos ? '?' : '&';
    return base + "limit=" + std::to_string(limit) + "&offset=" + std::to_string(offset) + "&delta=" + (delta ? "true" : "false");
}

}  // namespace

Result<PullOutcome> ShopPluginPuller::recordFailure(PullSource source, const std::string& label, bool delta, const std::string& reason) {
    FeedImportRecord record;
    record.source = label;
    record.delta = delta;
    return recordPullFailure(history_, clock_.nowSeconds(), std::move(source), std::move(record), reason);
}

Result<PullOutcome> ShopPluginPuller::pull(PullSource source) {
    auto tenant = tenants_.findById(source.tenantId);
    if (!tenant) return tenant.error();
    if (!*tenant) return Error::notFound("pull source " + std::to_string(source.id) + ": tenant " + std::to_string(source.tenantId) + " is gone");
    auto registration = registrations_.find(source.tenantId);
    if (!registration) return registration.error();
    if (!*registration) return recordFailure(source, sourceLabel(source.url), false, "the shop plugin's registration is gone");

    if (auto error = PrivateFiles::createDirectories(spoolDir_)) {
        return Error::unavailable("spool directory " + spoolDir_ + ": " + error.message());
    }
    Call call{fetcher_, {}, "", limits_.callTimeoutMs, 0, clock_.nowSeconds()};
    call.headers = {"svc-com-tid: " + (*tenant)->apiId, "svc-com-fid: " + (*tenant)->feedId, "Accept: application/json"};
    call.bodyPath = (std::filesystem::path(spoolDir_) / ("plugin-" + std::to_string(source.id) + "-" + std::to_string(randombytes_random()) + ".json")).string();

    auto outcome = run(source, **tenant, **registration, call);
    if (!outcome) return outcome;
    bool full = !outcome->record.delta && outcome->result == PullResult::Imported && outcome->record.status == ImportStatus::Applied;
    if (auto status = registrations_.recordPull(source.tenantId, clock_.nowSeconds(), outcome->source.lastResult, call.contactAt, full); !status) {
        return status.error();
    }
    return outcome;
}

Result<PullOutcome> ShopPluginPuller::run(PullSource source, const Tenant& tenant, const StoredShopRegistration& registration, Call& call) {
    const ShopRegistration& endpoints = registration.record;
    int64_t now = clock_.nowSeconds();
    // Full once a day (and first after every registration), stock and price deltas in between.
    bool delta = registration.lastFullPullAt > 0 && now - registration.lastFullPullAt < kPluginFullPullInterval;
    std::string label = sourceLabel(endpoints.productsUrl);

    // A held import waits for the operator. Pulling on would hold a new copy of the catalog every
    // hour (nothing tells svc that the plugin's data is unchanged), and a delta on top would be
    // undone by confirming the older full list: the feed rests until it is confirmed or discarded.
    auto latest = history_.list(tenant.id, source.feed, 1);
    if (!latest) return latest.error();
    if (!latest->empty() && latest->front().status == ImportStatus::Held) {
        source.lastResult = "held: import " + std::to_string(latest->front().id) + " awaits the operator's confirm or discard";
        return PullOutcome{PullResult::Unchanged, FeedImportRecord{}, source};
    }

    auto attributes = call.get(endpoints.attributesUrl, "attributes", limits_.maxListBytes);
    if (!attributes) return recordFailure(source, label, delta, attributes.error().message);
    auto dimensions = call.get(endpoints.variantDimensionsUrl, "variantDimensions", limits_.maxListBytes);
    if (!dimensions) return recordFailure(source, label, delta, dimensions.error().message);
    auto mapper = PluginProductMapper::create(*attributes, *dimensions, delta);
    if (!mapper) return recordFailure(source, label, delta, mapper.error().message);

    // The products become a CSV feed in the spool directory, written page by page (never the
    // whole catalog in memory), removed however the pull ends.
    struct Spool {
        std::string path;
        ~Spool() { ::unlink(path.c_str()); }
    } feed{call.bodyPath + ".csv"};
    std::ofstream out = PrivateFiles::openForWriting(feed.path);
    if (!out) return Error::unavailable("spool file " + feed.path + ": cannot be created");
    std::string chunk;
    appendCsvRecord(chunk, mapper->header());
    std::vector<RowError> rejected;
    int64_t offset = 0;
    while (true) {
        std::string endpoint = "products (offset " + std::to_string(offset) + ")";
        auto answer = call.get(pageUrl(endpoints.productsUrl, limits_.pageSize, offset, delta), endpoint, limits_.maxPageBytes);
        if (!answer) return recordFailure(source, label, delta, answer.error().message);
        auto page = parsePluginProductPage(*answer, offset, limits_.pageSize);
        if (!page) return recordFailure(source, label, delta, endpoint + ": " + page.error().message);
        if (page->total > limits_.maxProducts) {
            return recordFailure(source, label, delta,
                                 endpoint + ": total: " + std::to_string(page->total) + " products, more than the limit of " +
                                     std::to_string(limits_.maxProducts));
        }
        const json& products = *page->data;
        for (size_t i = 0; i < products.size(); ++i) {
            auto record = mapper->map(products[i], "data[" + std::to_string(i) + "]");
            if (record) {
                appendCsvRecord(chunk, *record);
            } else {
                // Skipped like a bad CSV row; the history names the page and the JSON path.
                rejected.push_back(RowError{RowErrorKind::InvalidProduct, static_cast<size_t>(offset) + i + 1, 0, endpoint + ": " + record.error().message});
            }
        }
        out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        chunk.clear();
        offset += static_cast<int64_t>(products.size());
        if (offset >= page->total) break;
        // A short catalog imported as full would mark the rest deleted: an empty page before
        // the announced total fails the pull instead.
        if (products.empty()) {
            return recordFailure(source, label, delta,
                                 endpoint + ": the page is empty, but total announced " + std::to_string(page->total) + " products");
        }
    }
    out.close();
    if (!out) return Error::unavailable("spool file " + feed.path + ": write failed");

    FeedImportOptions options;
    options.delta = delta;
    // The refused products go into the import's record as it is written, never added afterwards.
    auto imported = imports_.importPulled(tenant, feed.path, options, label, source.feed, std::move(rejected));
    if (!imported) return imported.error();
    const FeedImportRecord& record = imported->record;
    if (record.status == ImportStatus::Applied || record.status == ImportStatus::Held) {
        source.lastResult = std::string(importStatusName(record.status));
        return PullOutcome{PullResult::Imported, record, source};
    }
    source.lastResult = "failed: " + record.message;
    return PullOutcome{PullResult::Failed, record, source};
}

}  // namespace svc
