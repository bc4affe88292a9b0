#include "imagebot/ImageBot.hpp"

#include <curl/curl.h>
#include <fcntl.h>
#include <sodium.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "image/DominantColors.hpp"
#include "image/ImageCodec.hpp"
#include "image/PerceptualHash.hpp"
#include "store/LeaseOwner.hpp"
#include "store/PrivateFiles.hpp"
#include "store/WholeBlob.hpp"

namespace svc {
namespace {

std::string hexSha256(std::string_view bytes) {
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    for (unsigned char byte : digest) {
        hex += kHex[byte >> 4];
        hex += kHex[byte & 15];
    }
    return hex;
}

// The host a URL connects to, lower-case; politeness is per host, whatever the port.
std::string hostOf(const std::string& url) {
    std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> handle(curl_url(), curl_url_cleanup);
    if (!handle || curl_url_set(handle.get(), CURLUPART_URL, url.c_str(), 0) != CURLUE_OK) return {};
    char* host = nullptr;
    if (curl_url_get(handle.get(), CURLUPART_HOST, &host, 0) != CURLUE_OK || !host) return {};
    std::string text(host);
    curl_free(host);
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

// How long a job waits when other nodes hold every slot of its host.
constexpr int64_t kBusyHostWaitMs = 250;

}  // namespace

Result<std::unique_ptr<ImageBot>> ImageBot::open(ImageBotOptions options, CatalogStore& catalog, TenantStore& tenants, ImageFactStore& facts,
                                                 LeaseStore& leases, const Clock& clock) {
    auto policy = AddressPolicy::withAllowList(options.allowList);
    if (!policy) return policy.error();
    std::error_code error = PrivateFiles::createDirectories(options.dataDir + "/thumbs/tmp");
    if (error) return Error::unavailable("thumbs directory " + options.dataDir + "/thumbs: " + error.message());
    auto fetcher = std::make_unique<OutboundFetcher>(*policy, options.limits);
    return std::unique_ptr<ImageBot>(new ImageBot(std::move(options), catalog, tenants, facts, leases, clock, std::move(fetcher)));
}

ImageBot::ImageBot(ImageBotOptions options, CatalogStore& catalog, TenantStore& tenants, ImageFactStore& facts, LeaseStore& leases,
                   const Clock& clock, std::unique_ptr<OutboundFetcher> fetcher)
    : options_(std::move(options)),
      catalog_(catalog),
      tenants_(tenants),
      clock_(clock),
      facts_(facts),
      leases_(leases),
      leaseOwner_(options_.leaseOwner.empty() ? LeaseOwner::ofThisProcess() : options_.leaseOwner),
      fetcher_(std::move(fetcher)),
      userAgent_("svc-imagebot/1.0 (+" + options_.infoUrl + ")"),
      policy_(options_.politeness) {}

ImageBot::~ImageBot() { stop(); }

void ImageBot::start() {
    std::lock_guard lock(mutex_);
    if (started_) return;
    started_ = true;
    scanAllDue_ = true;
    scanner_ = std::thread([this] { scanLoop(); });
    for (int i = 0; i < std::max(1, options_.workers); ++i) workers_.emplace_back([this, i] { workLoop(i); });
}

void ImageBot::stop() {
    {
        std::lock_guard lock(mutex_);
        if (!started_ || stopping_) return;
        stopping_ = true;
    }
    wake_.notify_all();
    scanWake_.notify_all();
    idle_.notify_all();
    if (scanner_.joinable()) scanner_.join();
    for (auto& worker : workers_) worker.join();
    workers_.clear();
}

void ImageBot::catalogChanged(int64_t tenantId) {
    {
        std::lock_guard lock(mutex_);
        scansDue_.insert(tenantId);
    }
    scanWake_.notify_one();
}

bool ImageBot::waitIdle(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return idle_.wait_for(lock, timeout, [this] {
        return stopping_ || (queued_ == 0 && inFlight_ == 0 && scansDue_.empty() && !scanAllDue_ && !scanning_);
    });
}

std::string ImageBot::thumbnailPath(int64_t tenantId, const std::string& thumbKey) const {
    return options_.dataDir + "/thumbs/tenant-" + std::to_string(tenantId) + "/" + thumbKey + ".jpg";
}

std::string ImageBot::thumbKeyOf(const std::string& url) { return hexSha256(url); }

ImageBot::Visual ImageBot::visualOf(const ImageFacts& facts) const {
    Visual visual{facts.phash, std::nullopt};
    if (std::max(facts.width, facts.height) > options_.thumbnailSide) visual.replacementKey = facts.thumbKey;
    return visual;
}

std::optional<ImageBot::Visual> ImageBot::visualFor(int64_t tenantId, const std::string& url) {
    {
        std::shared_lock lock(visualsMutex_);
        auto tenant = visuals_.find(tenantId);
        if (tenant != visuals_.end()) {
            auto found = tenant->second.find(url);
            if (found == tenant->second.end()) return std::nullopt;
            return found->second;
        }
    }
    auto stored = facts_.fetched(tenantId);
    if (!stored) return std::nullopt;  // the feed's URL this time; loaded on a later request
    std::unique_lock lock(visualsMutex_);
    auto& visuals = visuals_[tenantId];
    for (const auto& facts : *stored) visuals.emplace(facts.url, visualOf(facts));
    auto found = visuals.find(url);
    if (found == visuals.end()) return std::nullopt;
    return found->second;
}

bool ImageBot::validThumbKey(std::string_view key) {
    return key.size() == 64 && key.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

ImageBot::Backlog ImageBot::backlog() const {
    std::lock_guard lock(mutex_);
    return {queued_, inFlight_};
}

ImageBot::Stats ImageBot::stats() const { return {fetches_.load(), retries_.load(), succeeded_.load(), failed_.load()}; }

int64_t ImageBot::steadyMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void ImageBot::scanLoop() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        if (scansDue_.empty() && !scanAllDue_) {
            // Nothing asked: the periodic scan picks up imports made by other processes (the CLI).
            if (!scanWake_.wait_for(lock, options_.rescanInterval, [this] { return stopping_ || !scansDue_.empty() || scanAllDue_; })) {
                scanAllDue_ = true;
            }
            continue;
        }
        std::set<int64_t> due;
        if (scanAllDue_) {
            scanAllDue_ = false;
            scansDue_.clear();
            lock.unlock();
            auto all = tenants_.list();
            if (all) {
                for (const auto& tenant : *all) due.insert(tenant.id);
            }
            lock.lock();
        } else {
            due.swap(scansDue_);
        }
        scanning_ = true;
        lock.unlock();
        for (int64_t tenantId : due) scanTenant(tenantId);
        lock.lock();
        scanning_ = false;
        idle_.notify_all();
    }
}

void ImageBot::scanTenant(int64_t tenantId) {
    // A tenant the operator disabled is not fetched for: nothing leaves svc on its behalf.
    auto tenant = tenants_.findById(tenantId);
    if (!tenant || !*tenant || (*tenant)->disabled) return;
    auto settled = facts_.settledUrls(tenantId, clock_.nowSeconds());
    if (!settled) return;  // the next scan tries again
    std::set<std::string> wanted;
    auto visited = catalog_.forEachLiveProduct(tenantId, [&](Product&& product) {
        for (const std::string* url : {&product.image, &product.thumbnail}) {
            if (!url->empty() && !settled->count(*url)) wanted.insert(*url);
        }
    });
    if (!visited) return;
    std::lock_guard lock(mutex_);
    for (const auto& url : wanted) {
        if (!pending_.insert({tenantId, url}).second) continue;  // already queued or in flight
        std::string host = hostOf(url);
        queues_[host].fresh.push_back({tenantId, url, host, 0, 0});
        ++queued_;
    }
    wake_.notify_all();
}

void ImageBot::workLoop(int index) {
    const std::string bodyPath = options_.dataDir + "/thumbs/tmp/body-" + std::to_string(::getpid()) + "-" + std::to_string(index);
    // Each worker holds slots in its own name: a slot is one request in flight, whichever bot's.
    const std::string owner = leaseOwner_ + "#" + std::to_string(index);
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        int64_t now = steadyMs();
        int64_t nextReadyMs = INT64_MAX;
        auto picked = takeReadyJob(now, nextReadyMs);
        if (!picked) {
            // Woken by a new job, a released slot, stop, or when the earliest wait is over.
            if (nextReadyMs == INT64_MAX) wake_.wait(lock);
            else wake_.wait_for(lock, std::chrono::milliseconds(nextReadyMs - now));
            continue;
        }
        Job job = std::move(*picked);
        ++inFlight_;
        lock.unlock();
        auto slot = claimHostSlot(job.host, owner);
        if (!slot || settled(job)) {
            if (slot) (void)leases_.release(*slot, owner);
            lock.lock();
            policy_.release(job.host);
            --inFlight_;
            if (slot) {
                pending_.erase({job.tenantId, job.url});  // another node fetched it
            } else {
                // Other nodes use every slot of the host: try again shortly, no attempt spent.
                job.notBeforeMs = steadyMs() + kBusyHostWaitMs;
                std::string host = job.host;
                queues_[host].retrying.push_back(std::move(job));
                ++queued_;
            }
            wake_.notify_all();
            idle_.notify_all();
            continue;
        }
        ++job.attempt;
        Outcome outcome = process(job, bodyPath);
        if (outcome.facts) {
            (outcome.facts->ok() ? succeeded_ : failed_)++;
            // Not saved: the next scan fetches it again.
            if (facts_.save(*outcome.facts) && outcome.facts->ok()) remember(*outcome.facts);
            // After the save: a node that claims the URL next finds it settled.
            (void)facts_.releaseFetch(job.tenantId, job.url, leaseOwner_);
        } else if (outcome.settled && outcome.settled->ok()) {
            remember(*outcome.settled);
        }
        // Lease expiries are whole seconds: other nodes wait out the pause to within one.
        if (outcome.pauseHost) holdHostSlots(job.host, owner, clock_.nowSeconds() + (outcome.retryDelayMs + 999) / 1000);
        else (void)leases_.release(*slot, owner);
        lock.lock();
        policy_.release(job.host);
        --inFlight_;
        if (outcome.facts || outcome.skipped) {
            pending_.erase({job.tenantId, job.url});
        } else {
            if (outcome.heldElsewhere) --job.attempt;
            else ++retries_;
            int64_t until = steadyMs() + outcome.retryDelayMs;
            if (outcome.pauseHost) policy_.pauseHost(job.host, until);
            job.notBeforeMs = until;
            std::string host = job.host;
            queues_[host].retrying.push_back(std::move(job));
            ++queued_;
        }
        wake_.notify_all();
        idle_.notify_all();
    }
    std::error_code ignored;
    std::filesystem::remove(bodyPath, ignored);
}

std::optional<std::string> ImageBot::claimHostSlot(const std::string& host, const std::string& owner) {
    // Long enough for one fetch with its timeouts; released as soon as the fetch is done.
    int64_t ttlSeconds = options_.limits.totalTimeoutMs / 1000 + 30;
    for (int slot = 0; slot < options_.politeness.perHostLimit; ++slot) {
        std::string name = "image-host/" + host + "/" + std::to_string(slot);
        auto claimed = leases_.claim(name, owner, clock_.nowSeconds(), ttlSeconds);
        if (!claimed) return std::nullopt;  // the database is away: no fetch (the job waits)
        if (*claimed) return name;
    }
    return std::nullopt;
}

void ImageBot::holdHostSlots(const std::string& host, const std::string& owner, int64_t untilUnixSeconds) {
    int64_t now = clock_.nowSeconds();
    for (int slot = 0; slot < options_.politeness.perHostLimit; ++slot) {
        (void)leases_.claim("image-host/" + host + "/" + std::to_string(slot), owner, now, std::max<int64_t>(1, untilUnixSeconds - now));
    }
}

bool ImageBot::settled(const Job& job) {
    if (job.attempt > 0) return false;  // this bot's own retry: nobody else fetches a URL it holds
    auto stored = facts_.find(job.tenantId, job.url);
    if (!stored || !*stored) return false;
    if ((*stored)->ok()) remember(**stored);  // another node's: content answers here use it too
    return (*stored)->ok() || (*stored)->nextAttemptAt > clock_.nowSeconds();
}

std::optional<ImageBot::Job> ImageBot::takeReadyJob(int64_t nowMs, int64_t& nextReadyMs) {
    for (auto it = queues_.begin(); it != queues_.end();) {
        auto& [host, queue] = *it;
        if (queue.fresh.empty() && queue.retrying.empty()) {
            it = queues_.erase(it);
            continue;
        }
        int64_t paused = policy_.pausedUntilMs(host);
        if (paused > nowMs) {
            nextReadyMs = std::min(nextReadyMs, paused);
            ++it;
            continue;
        }
        if (policy_.inFlight(host) >= policy_.options().perHostLimit) {
            ++it;  // a release wakes the workers
            continue;
        }
        // Retries first once due: they were queued earlier than any fresh job left.
        auto due = std::min_element(queue.retrying.begin(), queue.retrying.end(),
                                    [](const Job& a, const Job& b) { return a.notBeforeMs < b.notBeforeMs; });
        std::optional<Job> job;
        if (due != queue.retrying.end() && due->notBeforeMs <= nowMs) {
            job = std::move(*due);
            queue.retrying.erase(due);
        } else if (!queue.fresh.empty()) {
            job = std::move(queue.fresh.front());
            queue.fresh.pop_front();
        }
        if (!job) {
            nextReadyMs = std::min(nextReadyMs, due->notBeforeMs);
            ++it;
            continue;
        }
        if (!policy_.tryAcquire(host, nowMs)) return std::nullopt;  // cannot happen: checked above
        --queued_;
        return job;
    }
    return std::nullopt;
}

ImageFacts ImageBot::failure(const Job& job, long httpStatus, std::string reason) const {
    ImageFacts facts;
    facts.tenantId = job.tenantId;
    facts.url = job.url;
    facts.thumbKey = thumbKeyOf(job.url);
    facts.status = ImageFactStatus::Failed;
    facts.reason = std::move(reason);
    facts.httpStatus = httpStatus;
    facts.attempts = job.attempt;
    facts.fetchedAt = clock_.nowSeconds();
    facts.nextAttemptAt = facts.fetchedAt + options_.failedRetrySeconds;
    return facts;
}

namespace {
// How soon a node looks again at an image another node is fetching.
constexpr int64_t kHeldRecheckMs = 2'000;
}  // namespace

void ImageBot::remember(const ImageFacts& facts) {
    std::unique_lock visuals(visualsMutex_);
    auto tenant = visuals_.find(facts.tenantId);
    if (tenant != visuals_.end()) tenant->second[facts.url] = visualOf(facts);  // else loaded on first use
}

ImageBot::Outcome ImageBot::process(const Job& job, const std::string& bodyPath) {
    // Nodes sharing a database fetch each URL once (issue 24): the claim's holder fetches, the
    // others look again later and take the holder's facts (or the claim, when its holder died).
    int64_t claimedAt = clock_.nowSeconds();
    auto claimed = facts_.claimFetch(job.tenantId, job.url, leaseOwner_, claimedAt, options_.fetchClaimSeconds);
    if (!claimed || !*claimed) return Outcome{.retryDelayMs = kHeldRecheckMs, .heldElsewhere = true};
    // Queued before another node's facts were saved: claimed only after that node released it.
    if (auto known = facts_.find(job.tenantId, job.url); known && *known && ((*known)->ok() || (*known)->nextAttemptAt > claimedAt)) {
        (void)facts_.releaseFetch(job.tenantId, job.url, leaseOwner_);
        return Outcome{.skipped = true, .settled = std::move(**known)};
    }
    // The fetcher also speaks FTP (feeds); images are web resources.
    std::string scheme = job.url.substr(0, job.url.find(':'));
    std::transform(scheme.begin(), scheme.end(), scheme.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (scheme != "http" && scheme != "https") return {failure(job, 0, "bad URL: '" + job.url + "' is not an http or https URL")};
    FetchRequest request;
    request.url = job.url;
    request.bodyPath = bodyPath;
    request.userAgent = userAgent_;
    request.throttlingAsResponse = true;
    ++fetches_;
    auto response = fetcher_->fetch(request);
    int64_t now = clock_.nowSeconds();
    if (!response) {
        // Unavailable covers DNS, refused, timeouts and 5xx: worth another try. The rest (SSRF,
        // bad URL, 404, auth, too large) will not change by retrying.
        if (response.error().code == ErrorCode::Unavailable) {
            if (auto delay = policy_.retryDelayMs(job.attempt, 0, "", now)) return {std::nullopt, *delay, false};
        }
        return {failure(job, 0, response.error().message)};
    }
    if (response->status == 429 || response->status == 503) {
        auto delay = policy_.retryDelayMs(job.attempt, response->status, response->retryAfter, now);
        bool asked = PoliteFetchPolicy::parseRetryAfterMs(response->retryAfter, now).has_value();
        if (delay) return {std::nullopt, *delay, asked};
        std::string reason = "HTTP " + std::to_string(response->status) + " after " + std::to_string(job.attempt) + " attempts";
        if (!response->retryAfter.empty()) reason += " (Retry-After: " + response->retryAfter + ")";
        return {failure(job, response->status, reason)};
    }
    auto facts = analyse(job, *response, readAll(bodyPath));
    if (!facts) {
        std::string reason = facts.error().message;
        if (!response->contentType.empty()) reason += " (Content-Type " + response->contentType + ")";
        return {failure(job, response->status, reason)};
    }
    return {std::move(*facts)};
}

Result<ImageFacts> ImageBot::analyse(const Job& job, const FetchResponse& response, const std::string& bytes) {
    ImageFacts facts;
    RgbImage thumbnail;
    {  // the full-size pixels (up to maxPixels x 3 bytes) live only in this block
        auto image = ImageCodec::decode(bytes, options_.maxPixels);
        if (!image) return image.error();
        facts.width = image->width;
        facts.height = image->height;
        auto [width, height] = ImageCodec::fitWithin(image->width, image->height, options_.thumbnailSide);
        thumbnail = ImageCodec::resize(*image, width, height);
    }
    facts.tenantId = job.tenantId;
    facts.url = job.url;
    facts.thumbKey = thumbKeyOf(job.url);
    facts.status = ImageFactStatus::Ok;
    facts.httpStatus = response.status;
    facts.etag = response.etag;
    facts.contentSha256 = hexSha256(bytes);
    facts.contentType = response.contentType;
    facts.bytes = static_cast<int64_t>(bytes.size());
    facts.attempts = job.attempt;
    facts.fetchedAt = clock_.nowSeconds();
    // Facts from the thumbnail-sized copy: the same colours and hash for a fraction of the work.
    facts.colors = DominantColors::of(thumbnail);
    facts.phash = PerceptualHash::of(thumbnail);
    if (auto written = writeThumbnail(job.tenantId, facts.thumbKey, ImageCodec::encodeJpeg(thumbnail, options_.thumbnailQuality)); !written) {
        return written.error();
    }
    return facts;
}

Result<std::optional<std::string>> ImageBot::readThumbnail(int64_t tenantId, const std::string& thumbKey) const {
    if (!options_.thumbnails) {
        std::ifstream file(thumbnailPath(tenantId, thumbKey), std::ios::binary);
        if (!file) return std::optional<std::string>();
        std::ostringstream bytes;
        bytes << file.rdbuf();
        return std::optional<std::string>(bytes.str());
    }
    return WholeBlob::read(*options_.thumbnails, std::to_string(tenantId) + "-" + thumbKey + ".jpg");
}

Status ImageBot::writeThumbnail(int64_t tenantId, const std::string& key, const std::string& jpeg) const {
    if (options_.thumbnails) return WholeBlob::write(*options_.thumbnails, std::to_string(tenantId) + "-" + key + ".jpg", jpeg);
    std::string finalPath = thumbnailPath(tenantId, key);
    std::error_code error = PrivateFiles::createDirectories(std::filesystem::path(finalPath).parent_path().string());
    if (error) return Error::unavailable("thumbnail " + finalPath + ": " + error.message());
    // Written beside its final name and renamed: a reader or a crash never sees half a file.
    std::string temporary = finalPath + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(std::hash<std::thread::id>()(std::this_thread::get_id()));
    int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return Error::unavailable("thumbnail " + temporary + ": " + std::strerror(errno));
    size_t done = 0;
    while (done < jpeg.size()) {
        ssize_t wrote = ::write(fd, jpeg.data() + done, jpeg.size() - done);
        if (wrote < 0 && errno == EINTR) continue;
        if (wrote < 0) break;
        done += static_cast<size_t>(wrote);
    }
    bool ok = done == jpeg.size() && ::fsync(fd) == 0;
    ::close(fd);
    if (!ok || ::rename(temporary.c_str(), finalPath.c_str()) != 0) {
        ::unlink(temporary.c_str());
        return Error::unavailable("thumbnail " + finalPath + ": cannot write");
    }
    return Status::success();
}

}  // namespace svc
