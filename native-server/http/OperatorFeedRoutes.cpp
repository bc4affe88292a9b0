#include "http/OperatorFeedRoutes.hpp"

#include <sodium.h>

#include <algorithm>
#include <map>
#include <string_view>

#include "feed/FeedFreshness.hpp"
#include "feed/FeedPuller.hpp"
#include "feed/PullSourceRules.hpp"
#include "http/FeedRoutes.hpp"
#include "http/HttpErrors.hpp"
#include "http/HttpJson.hpp"
#include "text/StringUtil.hpp"

namespace svc {
namespace {

using nlohmann::json;

constexpr const char* kTenant = "/operator/api/tenants/([A-Za-z0-9-]{1,64})";
constexpr const char* kFeed = "([a-z0-9_-]{1,40})";
constexpr size_t kCatalogSizePoints = 500;

// The members a pull source's body may have; anything else is a typo the operator should hear of.
const std::vector<std::string> kSourceMembers = {"feed", "url", "every", "delta", "identifier", "delimiter",
                                                 "username", "password", "privateKey", "hostKey"};

std::string randomHex() {
    unsigned char bytes[16];
    randombytes_buf(bytes, sizeof bytes);
    char hex[sizeof bytes * 2 + 1];
    sodium_bin2hex(hex, sizeof hex, bytes, sizeof bytes);
    return hex;
}

// A body's pull source settings laid over `request` (defaults, or the stored source), with the
// credentials given in it; type errors are collected, each naming its member.
void applyBody(const json& body, PullSourceRequest& request, Credentials& credentials, std::vector<Error>& errors, bool adding) {
    for (const auto& [name, unused] : body.items()) {
        if (std::find(kSourceMembers.begin(), kSourceMembers.end(), name) == kSourceMembers.end()) {
            errors.push_back(Error::invalidArgument(name + ": not a pull source setting"));
        }
    }
    auto text = [&](const char* field, std::string& target) {
        if (!body.contains(field) || body[field].is_null()) return;
        if (!body[field].is_string()) return errors.push_back(Error::invalidArgument(std::string(field) + ": must be a string"));
        target = body[field].get<std::string>();
    };
    if (adding) text("feed", request.feed);
    text("url", request.url);
    request.url = std::string(trim(request.url));
    if (body.contains("every") && !body["every"].is_null()) {
        if (!body["every"].is_string()) errors.push_back(Error::invalidArgument("every: must be a string such as 1h or 1d"));
        else if (trim(body["every"].get<std::string>()).empty()) request.every.reset();  // the default
        else request.every = body["every"].get<std::string>();
    }
    if (body.contains("delta") && !body["delta"].is_null()) {
        if (!body["delta"].is_boolean()) errors.push_back(Error::invalidArgument("delta: must be true or false"));
        else request.delta = body["delta"].get<bool>();
    }
    text("identifier", request.identifier);
    text("delimiter", request.delimiter);
    // Credentials: a string replaces (an empty one removes), a missing member keeps what is set.
    text("username", credentials.username);
    text("password", credentials.password);
    text("privateKey", credentials.privateKey);
    text("hostKey", credentials.hostKey);
    credentials.hostKey = std::string(trim(credentials.hostKey));
    request.username = credentials.username;
    request.hasPassword = !credentials.password.empty();
    request.hasPrivateKey = !credentials.privateKey.empty();
    request.hostKey = credentials.hostKey;
}

// One message per field, the first: a member of the wrong type is not also "not a URL".
std::vector<Error> firstPerField(const std::vector<Error>& errors) {
    std::vector<Error> kept;
    std::vector<std::string> seen;
    for (const auto& error : errors) {
        std::string field = error.message.substr(0, error.message.find(": "));
        if (std::find(seen.begin(), seen.end(), field) != seen.end()) continue;
        seen.push_back(field);
        kept.push_back(error);
    }
    return kept;
}

void wipe(Credentials& credentials) {
    sodium_memzero(credentials.password.data(), credentials.password.size());
    sodium_memzero(credentials.privateKey.data(), credentials.privateKey.size());
}

}  // namespace

OperatorFeedRoutes::OperatorFeedRoutes(OperatorAuth& auth, FeedImportStore& history, BlobStore& files, ImportWorker& worker,
                                       PullSourceStore& sources, CredentialCipher cipher, const Clock& clock,
                                       size_t maxUploadBytes, std::function<std::string(const httplib::Request&)> baseUrl)
    : auth_(auth),
      history_(history),
      files_(files),
      worker_(worker),
      sources_(&sources),
      cipher_(cipher),
      clock_(clock),
      maxUploadBytes_(maxUploadBytes),
      baseUrl_(std::move(baseUrl)) {}

bool OperatorFeedRoutes::isUploadPath(const std::string& method, const std::string& path) {
    // Asked before routing for every request (POST /events too): string tests, no regex.
    constexpr std::string_view prefix = "/operator/api/tenants/", suffix = "/imports";
    if (method != "POST" || path.size() <= prefix.size() + suffix.size() || path.rfind(prefix, 0) != 0) return false;
    if (path.compare(path.size() - suffix.size(), suffix.size(), suffix) != 0) return false;
    std::string_view apiId = std::string_view(path).substr(prefix.size(), path.size() - prefix.size() - suffix.size());
    return apiId.size() <= 64 && apiId.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-") ==
                                     std::string_view::npos;
}

void OperatorFeedRoutes::registerOn(httplib::Server& server) {
    const std::string tenant = kTenant;
    const std::string source = tenant + "/pull-sources/" + kFeed;
    server.Get("/operator/api/feeds", [this](const httplib::Request& q, httplib::Response& r) { overview(q, r); });
    server.Get(tenant + "/feeds", [this](const httplib::Request& q, httplib::Response& r) { feeds(q, r); });
    server.Get(tenant + "/pull-sources", [this](const httplib::Request& q, httplib::Response& r) { listSources(q, r); });
    server.Post(tenant + "/pull-sources", [this](const httplib::Request& q, httplib::Response& r) { addSource(q, r); });
    server.Patch(source, [this](const httplib::Request& q, httplib::Response& r) { changeSource(q, r); });
    server.Delete(source, [this](const httplib::Request& q, httplib::Response& r) { removeSource(q, r); });
    server.Post(source + "/pull", [this](const httplib::Request& q, httplib::Response& r) { pullNow(q, r); });
    server.Post(tenant + "/imports", [this](const httplib::Request& q, httplib::Response& r, const httplib::ContentReader& reader) {
        upload(q, r, reader);
    });
    server.Get(tenant + "/catalog-size", [this](const httplib::Request& q, httplib::Response& r) { catalogSize(q, r); });
}

json OperatorFeedRoutes::sourceJson(const PullSource& source) const {
    Credentials credentials;
    bool readable = true;
    if (!source.sealedCredentials.empty()) {
        auto opened = cipher_.open(source.sealedCredentials, FeedPuller::credentialOwner(source.tenantId, source.feed));
        if (opened) credentials = std::move(*opened);
        else readable = false;
    }
    json set{{"username", !credentials.username.empty()},
             {"password", !credentials.password.empty()},
             {"privateKey", !credentials.privateKey.empty()},
             {"hostKey", !credentials.hostKey.empty()}};
    wipe(credentials);
    return {{"feed", source.feed},
            {"kind", source.kind},
            {"url", redactPullUrl(source.url)},  // also a source stored before URLs were kept redacted
            {"every", formatPullInterval(source.intervalSeconds)},
            {"intervalSeconds", source.intervalSeconds},
            {"delta", source.delta},
            {"identifier", source.identifier},
            {"delimiter", std::string(1, source.delimiter)},
            // Which credentials are set, never their values (the username included: it is half a login).
            {"credentialsSet", set},
            // False when the sealed value no longer opens (another key file): pulls fail until they are set again.
            {"credentialsReadable", readable},
            {"nextRunAt", source.nextRunAt},
            {"lastRunAt", source.lastRunAt},
            {"lastResult", redactUrlsIn(source.lastResult)},
            {"createdAt", source.createdAt}};
}

Result<json> OperatorFeedRoutes::feedStates(const Tenant& tenant, int64_t now) {
    auto pulls = sources_->list(tenant.id);
    if (!pulls) return pulls.error();
    auto applied = history_.lastApplied(tenant.id);
    if (!applied) return applied.error();
    // Every feed the tenant has: one with a pull source, or one that ever got an import applied.
    std::map<std::string, std::pair<const PullSource*, const FeedImportRecord*>> byFeed;
    for (const auto& source : *pulls) byFeed[source.feed].first = &source;
    for (const auto& record : *applied) byFeed[record.feed].second = &record;
    json list = json::array();
    for (const auto& [feed, known] : byFeed) {
        const auto& [source, last] = known;
        FeedFreshnessInput input;
        if (last) input.lastAppliedAt = last->finishedAt;
        if (source) input.pullIntervalSeconds = source->intervalSeconds;
        auto freshness = FeedFreshness::of(input, now);
        list.push_back({{"feed", feed},
                        {"delivery", source ? "pull" : "push"},
                        {"delta", source ? source->delta : (last && last->delta)},
                        {"lastImportId", last ? last->id : 0},
                        {"lastAppliedAt", input.lastAppliedAt},
                        {"ageSeconds", freshness.ageSeconds},
                        {"staleAfterSeconds", freshness.staleAfterSeconds},
                        {"state", FeedFreshness::name(freshness.state)},
                        {"catalogProducts", last && last->catalogProducts >= 0 ? json(last->catalogProducts) : json(nullptr)},
                        // The feed's lifecycle (docs/adr/0070), as its last applied import showed it.
                        {"describesProducts", last && last->describesProducts ? json(*last->describesProducts) : json(nullptr)},
                        {"unknownSkus", last ? last->counts.unknown : 0}});
    }
    return list;
}

void OperatorFeedRoutes::overview(const httplib::Request& request, httplib::Response& response) {
    auto caller = auth_.authenticate(request, false);
    if (!caller) return sendError(response, caller.error());
    auto all = auth_.tenants().list();
    if (!all) return sendError(response, all.error());
    int64_t now = clock_.nowSeconds();
    json tenants = json::array();
    for (const auto& tenant : *all) {
        auto feeds = feedStates(tenant, now);
        if (!feeds) return sendError(response, feeds.error());
        // The tenants list's column: stale as soon as one feed is stale or never got an import.
        json stale = json::array();
        for (const auto& feed : *feeds) {
            if (feed["state"] != "fresh") stale.push_back(feed["feed"]);
        }
        tenants.push_back({{"apiId", tenant.apiId},
                           {"feeds", feeds->size()},
                           {"state", feeds->empty() ? "none" : stale.empty() ? "fresh" : "stale"},
                           {"staleFeeds", stale}});
    }
    sendJson(response, 200, {{"now", now}, {"tenants", tenants}}, JsonCaching::NoStore);
}

void OperatorFeedRoutes::feeds(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, false);
    if (!tenant) return sendError(response, tenant.error());
    int64_t now = clock_.nowSeconds();
    auto list = feedStates(*tenant, now);
    if (!list) return sendError(response, list.error());
    // How the shop pushes (spec endpoints 1 and 2): the secret is never shown again, only where it goes.
    std::string base = baseUrl_(request);
    json push{{"uploadsUrl", base + "/feeds/uploads"},
              {"importsUrl", base + "/feeds/imports"},
              {"validateUrl", base + "/feeds/validate"},
              {"headers", {{"x-api-id", tenant->apiId}, {"x-api-secret", "<API secret>"}, {"content-type", "application/json"}}},
              {"body", {{"identifier", "sku"}, {"format", {{"type", "csv"}, {"options", {{"delimiter", ";"}}}}}, {"delta", false},
                        {"feed", "default"}}}};
    sendJson(response, 200, {{"now", now}, {"feeds", *list}, {"push", push}}, JsonCaching::NoStore);
}

void OperatorFeedRoutes::listSources(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, false);
    if (!tenant) return sendError(response, tenant.error());
    auto all = sources_->list(tenant->id);
    if (!all) return sendError(response, all.error());
    json list = json::array();
    for (const auto& source : *all) list.push_back(sourceJson(source));
    sendJson(response, 200, {{"now", clock_.nowSeconds()}, {"sources", list}}, JsonCaching::NoStore);
}

void OperatorFeedRoutes::addSource(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, true);
    if (!tenant) return sendError(response, tenant.error());
    auto body = readJsonBody(request);
    if (!body) return sendError(response, body.error());
    PullSourceRequest wanted;
    Credentials credentials;
    std::vector<Error> errors;
    applyBody(*body, wanted, credentials, errors, true);
    if (!body->contains("url")) errors.push_back(Error::invalidArgument("url: required"));
    auto checked = PullSourceRules::check(wanted, PullSourceFieldNames::api());
    errors.insert(errors.end(), checked.errors.begin(), checked.errors.end());
    if (!credentials.privateKey.empty()) {
        if (auto valid = PullSourceRules::checkPrivateKey(credentials.privateKey, "privateKey", "the text"); !valid) errors.push_back(valid.error());
    }
    if (!errors.empty()) {
        wipe(credentials);
        return sendFieldErrors(response, firstPerField(errors));
    }
    PullSource source;
    source.tenantId = tenant->id;
    source.feed = wanted.feed;
    // The query (tokens) is sealed with the credentials; the stored URL shows its values redacted.
    source.url = redactPullUrl(wanted.url);
    credentials.urlQuery = pullUrlQuery(wanted.url);
    source.intervalSeconds = checked.intervalSeconds;
    source.delta = wanted.delta;
    source.identifier = wanted.identifier;
    source.delimiter = wanted.delimiter[0];
    // Sealed as the CLI seals them (bound to tenant and feed); only the sealed value is stored.
    if (!credentials.empty()) source.sealedCredentials = cipher_.seal(credentials, FeedPuller::credentialOwner(source.tenantId, source.feed));
    wipe(credentials);
    source.createdAt = clock_.nowSeconds();
    source.nextRunAt = source.createdAt;  // the first pull right away
    auto stored = sources_->add(source);
    if (!stored) {
        if (stored.error().code == ErrorCode::AlreadyExists) {
            return sendFieldErrors(response, {Error::alreadyExists("feed: the feed '" + source.feed +
                                                                   "' already has a pull source; change or remove that one")});
        }
        return sendError(response, stored.error());
    }
    if (pullWaker_) pullWaker_();
    sendJson(response, 201, sourceJson(*stored), JsonCaching::NoStore);
}

void OperatorFeedRoutes::changeSource(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, true);
    if (!tenant) return sendError(response, tenant.error());
    auto body = readJsonBody(request);
    if (!body) return sendError(response, body.error());
    std::string feed = request.matches[2];
    auto found = sources_->find(tenant->id, feed);
    if (!found) return sendError(response, found.error());
    if (!*found) return sendError(response, Error::notFound("the feed '" + feed + "' has no pull source"));
    PullSource source = **found;
    if (source.kind == kPullSourcePlugin) {
        return sendError(response, Error::invalidArgument("feed: this source is a shop plugin's; it changes when the shop registers again"));
    }
    // The stored settings, with the body's changes laid over them, must meet the same rules as a new source.
    PullSourceRequest wanted;
    wanted.feed = source.feed;
    wanted.every = formatPullInterval(source.intervalSeconds);
    wanted.delta = source.delta;
    wanted.identifier = source.identifier;
    wanted.delimiter = std::string(1, source.delimiter);
    Credentials credentials;
    std::vector<Error> errors;
    if (!source.sealedCredentials.empty()) {
        auto opened = cipher_.open(source.sealedCredentials, FeedPuller::credentialOwner(source.tenantId, source.feed));
        // Unreadable ones (another key file) are replaced by what the body gives.
        if (opened) credentials = std::move(*opened);
    }
    // The whole URL, its sealed query put back; a source stored before queries were sealed has it in `url`.
    const std::string storedUrl = withPullUrlQuery(source.url, credentials.urlQuery);
    wanted.url = storedUrl;
    if (body->contains("feed") && (*body)["feed"] != json(source.feed)) {
        errors.push_back(Error::invalidArgument("feed: a source's feed cannot change; add a source for the other feed instead"));
    }
    json changes = *body;
    changes.erase("feed");
    applyBody(changes, wanted, credentials, errors, false);
    // The console sends back the URL as it was shown (redacted): that is no change of URL.
    if (wanted.url == source.url || wanted.url == redactPullUrl(storedUrl)) wanted.url = storedUrl;
    auto checked = PullSourceRules::check(wanted, PullSourceFieldNames::api());
    errors.insert(errors.end(), checked.errors.begin(), checked.errors.end());
    if (body->contains("privateKey") && !credentials.privateKey.empty()) {
        if (auto valid = PullSourceRules::checkPrivateKey(credentials.privateKey, "privateKey", "the text"); !valid) errors.push_back(valid.error());
    }
    if (!errors.empty()) {
        wipe(credentials);
        return sendFieldErrors(response, firstPerField(errors));
    }
    bool urlChanged = wanted.url != storedUrl;
    source.url = redactPullUrl(wanted.url);
    credentials.urlQuery = pullUrlQuery(wanted.url);
    source.intervalSeconds = checked.intervalSeconds;
    source.delta = wanted.delta;
    source.identifier = wanted.identifier;
    source.delimiter = wanted.delimiter[0];
    source.sealedCredentials = credentials.empty() ? "" : cipher_.seal(credentials, FeedPuller::credentialOwner(source.tenantId, source.feed));
    wipe(credentials);
    // A new place is pulled at once; otherwise the next run keeps to the (new) interval.
    int64_t now = clock_.nowSeconds();
    if (urlChanged) source.nextRunAt = now;
    else if (source.lastRunAt > 0) source.nextRunAt = std::max(now, source.lastRunAt + source.intervalSeconds);
    if (auto status = sources_->change(source); !status) return sendError(response, status.error());
    if (urlChanged && pullWaker_) pullWaker_();
    auto stored = sources_->find(tenant->id, feed);
    if (!stored) return sendError(response, stored.error());
    if (!*stored) return sendError(response, Error::notFound("the feed '" + feed + "' has no pull source"));
    sendJson(response, 200, sourceJson(**stored), JsonCaching::NoStore);
}

void OperatorFeedRoutes::removeSource(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, true);
    if (!tenant) return sendError(response, tenant.error());
    std::string feed = request.matches[2];
    auto removed = sources_->remove(tenant->id, feed);
    if (!removed) return sendError(response, removed.error());
    if (!*removed) return sendError(response, Error::notFound("the feed '" + feed + "' has no pull source"));
    response.status = 204;
}

void OperatorFeedRoutes::pullNow(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, true);
    if (!tenant) return sendError(response, tenant.error());
    std::string feed = request.matches[2];
    auto found = sources_->find(tenant->id, feed);
    if (!found) return sendError(response, found.error());
    if (!*found) return sendError(response, Error::notFound("the feed '" + feed + "' has no pull source"));
    // Made due now and the scheduler woken: the pull runs on the scheduler's thread like any
    // other (never two at once); the page follows it in the source's lastRunAt and the history.
    PullSource source = **found;
    int64_t now = clock_.nowSeconds();
    source.nextRunAt = now;
    if (auto status = sources_->change(source); !status) return sendError(response, status.error());
    if (pullWaker_) pullWaker_();
    sendJson(response, 202, {{"feed", feed}, {"requestedAt", now}, {"scheduled", static_cast<bool>(pullWaker_)}}, JsonCaching::NoStore);
}

void OperatorFeedRoutes::upload(const httplib::Request& request, httplib::Response& response, const httplib::ContentReader& reader) {
    // Who and what first: a refused upload reads and stores nothing.
    auto tenant = auth_.tenantFor(request, true);
    if (!tenant) return sendError(response, tenant.error());
    std::vector<Error> errors;
    FeedImportRecord record;
    record.tenantId = tenant->id;
    record.source = "console";
    // The options by FeedImportOptions' rules, as every entry point that accepts them.
    FeedImportOptions options;
    if (request.has_param("feed")) options.feed = request.get_param_value("feed");
    if (request.has_param("identifier")) options.identifier = request.get_param_value("identifier");
    std::optional<Error> delimiterError;
    if (request.has_param("delimiter")) {
        auto delimiter = FeedImportOptions::parseDelimiter(request.get_param_value("delimiter"), "delimiter");
        if (delimiter) options.delimiter = *delimiter;
        else delimiterError = delimiter.error();
    }
    errors = options.validate(FeedImportFieldNames::api());
    if (delimiterError) errors.push_back(*delimiterError);
    record.feed = options.feed;
    record.identifier = options.identifier;
    record.delimiter = options.delimiter;
    if (request.has_param("delta")) {
        std::string delta = request.get_param_value("delta");
        if (delta != "true" && delta != "false") errors.push_back(Error::invalidArgument("delta: must be true or false"));
        record.delta = delta == "true";
    }
    // The push endpoint's format: CSV (docs/adr/0011).
    std::string type = toLower(request.get_header_value("Content-Type"));
    if (type.rfind("text/csv", 0) != 0) errors.push_back(Error::invalidArgument("file: must be sent as text/csv (a CSV feed file)"));
    if (!errors.empty()) return sendFieldErrors(response, errors);

    record.createdAt = clock_.nowSeconds();
    record.fileKey = "console-" + randomHex() + ".csv";
    auto received = storeRequestBody(files_, record.fileKey, reader, maxUploadBytes_);
    if (!received) {
        (void)files_.remove(record.fileKey);
        if (received.error().code == ErrorCode::InvalidArgument || received.error().code == ErrorCode::ResourceExhausted) {
            return sendFieldErrors(response, {Error{received.error().code, "file: " + received.error().message}});
        }
        return sendError(response, received.error());
    }
    if (*received == 0) {
        (void)files_.remove(record.fileKey);
        return sendFieldErrors(response, {Error::invalidArgument("file: the file is empty")});
    }
    // Queued like a push upload: the same worker runs it through the same importer.
    record.status = ImportStatus::Queued;
    auto id = history_.create(record);
    if (!id) {
        (void)files_.remove(record.fileKey);
        return sendError(response, id.error());
    }
    worker_.notify();
    sendJson(response, 202, {{"importId", *id}, {"status", "queued"}, {"bytes", *received}, {"feed", record.feed}}, JsonCaching::NoStore);
}

void OperatorFeedRoutes::catalogSize(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, false);
    if (!tenant) return sendError(response, tenant.error());
    auto records = history_.catalogSizeHistory(tenant->id, kCatalogSizePoints);
    if (!records) return sendError(response, records.error());
    json points = json::array();
    for (const auto& record : *records) {
        points.push_back({{"importId", record.id}, {"at", record.finishedAt}, {"feed", record.feed}, {"products", record.catalogProducts}});
    }
    sendJson(response, 200, {{"points", points}}, JsonCaching::NoStore);
}

}  // namespace svc
