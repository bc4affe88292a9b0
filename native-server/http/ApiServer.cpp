#include "http/ApiServer.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "app/BuildInfo.hpp"
#include "http/ClientConnection.hpp"
#include "http/GraphqlHttp.hpp"
#include "log/Log.hpp"
#include "security/CursorTags.hpp"
#include "http/HttpErrors.hpp"
#include "http/RequestContext.hpp"
#include "text/BoundedJson.hpp"
#include "text/StringUtil.hpp"
#include "http/ResponseCompression.hpp"
#include "http/StaticFiles.hpp"
#include "image/PerceptualHash.hpp"
#include "widget/ContentRequest.hpp"

namespace svc {

namespace {

constexpr const char* kApiIdPattern = "([A-Za-z0-9-]{1,64})";
thread_local std::chrono::steady_clock::time_point requestStarted;

// Behind a trusted proxy every client has the proxy's address: the gate's per-address limits skip it.
ConnectionLimits gateLimits(const ServerOptions& options) {
    ConnectionLimits limits = options.connections;
    limits.unlimitedPeers = options.trustedProxies;
    return limits;
}

void replaceAll(std::string& text, const std::string& from, const std::string& to) {
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
}

void allowAnyOrigin(httplib::Response& response) {
    response.set_header("Access-Control-Allow-Origin", "*");
    response.set_header("Vary", "Origin");
}

// Requests from svc's own pages (the demo shop, the console's preview of unsaved-then-saved
// settings) are never cached: the operator sees a change at once. A shop's pages are on
// another origin, so theirs keep the short public cache. `base` is svc's own origin.
bool fromOwnPage(const httplib::Request& request, const std::string& base) {
    std::string referer = request.get_header_value("Referer");
    return referer.compare(0, base.size(), base) == 0 && (referer.size() == base.size() || referer[base.size()] == '/');
}

// An https public URL means browsers reach the console through TLS: its cookie is Secure.
ServerOptions withPublicUrlRules(ServerOptions options) {
    if (options.publicUrl && options.publicUrl->https()) options.console.secureCookies = true;
    return options;
}

// The event writer reports its commits to the server's metrics.
ServerOptions withEventMetrics(ServerOptions options, ServiceMetrics& metrics) {
    options.events.writer.metrics = &metrics;
    return options;
}

// An API ID as routes accept it (kApiIdPattern): anything else names no tenant.
bool wellFormedApiId(const std::string& apiId) {
    return !apiId.empty() && apiId.size() <= 64 && apiId.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
}

std::string readFile(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    std::ostringstream content;
    content << file.rdbuf();
    return content.str();
}

}  // namespace

ApiServer::ApiServer(ServerOptions options, Storage& storage, const ServerKeys& keys)
    : options_(withEventMetrics(withPublicUrlRules(std::move(options)), serviceMetrics_)),
      sdkFiles_(StaticFiles::preloaded(options_.assetsDir + "/sdk")),
      loaderFiles_(StaticFiles::preloaded(options_.assetsDir + "/loader")),
      graphiqlPage_(options_.assetsDir),
      sdkFingerprint_(sdkFiles_.fingerprint()),
      storage_(storage),
      tenants_(storage.tenants()),
      contentIndex_(storage.catalog(), storage.content(), &storage.events(), storage.clock(), options_.content),
      recommendations_(contentIndex_),
      widgetContent_(recommendations_),
      cursors_(hmacCursorTags(keys.cursorSigningKey())),
      graphql_(recommendations_, cursors_, options_.graphql.limits),
      files_(options_.dataDir + "/uploads", keys.fileEncryptionKey()),
      signer_(keys.uploadSigningKey()),
      imports_(storage.catalog(), storage.imports(), files_, storage.clock()),
      worker_(imports_, storage.imports(), storage.tenants(), storage.clock()),
      feedRoutes_(tenants_, storage.imports(), imports_, files_, signer_, worker_, storage.clock(), options_.feeds,
                  [this](const httplib::Request& request) { return baseUrl(request); }),
      eventRoutes_(tenants_, storage.events(), storage.clock(), options_.events),
      setRoutes_(tenants_, storage.content(), storage.operatorKeys(), contentIndex_),
      attributionCatalog_(storage.catalog(), storage.content(), &recommendations_),
      attributor_(storage.ledger(), storage.tenants(), attributionCatalog_, storage.clock()),
      reportRoutes_(tenants_, storage.events(), storage.ledger(), attributor_, storage.clock()),
      server_(gateLimits(options_), options_.threads) {
    // Content is rebuilt after every applied import; the generation tells other processes too.
    // The change is handed over first, so the rebuild it schedules (or one the generation
    // triggers) finds it and reads just the changed articles.
    imports_.setAppliedListener([this, &storage](int64_t tenantId, CatalogChange change) {
        contentIndex_.catalogChanged(tenantId, std::move(change));
        (void)storage.content().bumpGeneration(tenantId);
        if (imageBot_) imageBot_->catalogChanged(tenantId);  // only queues a scan
    });
    if (options_.imageBot) {
        ImageBotOptions botOptions = *options_.imageBot;
        if (botOptions.dataDir.empty()) botOptions.dataDir = options_.dataDir;
        auto bot = ImageBot::open(std::move(botOptions), storage.catalog(), storage.tenants(), storage.imageFacts(), storage.clock());
        if (bot) {
            imageBot_ = std::move(*bot);
            thumbnailRoutes_ = std::make_unique<ThumbnailRoutes>(tenants_, *imageBot_);
        } else {
            Log::warn("image bot off: " + bot.error().message);
        }
    }
    presentation_ = std::make_unique<WidgetPresentation>(storage.widgetSettings(), storage.priceHistory());
    shopRoutes_ = std::make_unique<ShopRoutes>(tenants_, storage.shopRegistrations(), storage.clock(), options_.shops);
    auto accounts = std::make_unique<OperatorAccounts>(storage.operators(), storage.clock(), options_.console.passwordCost,
                                                       options_.console.passwordHashes);
    // One authenticator for every operator route class (sessions, CSRF, operator keys).
    operatorAuth_ = std::make_unique<OperatorAuth>(storage.tenants(), storage.operatorKeys(), std::move(accounts), options_.publicUrl);
    operatorRoutes_ = std::make_unique<OperatorRoutes>(
        *operatorAuth_, storage.tenants(), storage.imports(), imports_, storage.widgetSettings(), options_.assetsDir + "/console",
        options_.console, storage.clock(), [this](int64_t tenantId) {
            if (presentation_) presentation_->forget(tenantId);
        });
    operatorReportRoutes_ = std::make_unique<OperatorReportRoutes>(*operatorAuth_, storage.ledger(), attributor_, storage.clock());
    operatorAccountRoutes_ = std::make_unique<OperatorAccountRoutes>(*operatorAuth_);
    operatorLearningRoutes_ = std::make_unique<OperatorLearningRoutes>(*operatorAuth_, contentIndex_);
    categoryMappingRoutes_ = std::make_unique<OperatorCategoryMappingRoutes>(
        *operatorAuth_, storage.catalog(), storage.content(), storage.categoryMappings(), contentIndex_,
        [this](const Tenant& tenant, const PageHints& hints, ContentResponse& content) {
            return presentation_ ? presentation_->decorate(tenant, hints, content) : Status{};
        });
    widgetPreviewRoutes_ = std::make_unique<WidgetPreviewRoutes>(*operatorAuth_, storage.catalog(), storage.content(),
                                                                 options_.assetsDir + "/console");
    operatorSetRoutes_ = std::make_unique<OperatorSetRoutes>(
        *operatorAuth_, storage.tenants(), storage.content(), storage.catalog(), contentIndex_, options_.dataDir,
        [this](const Tenant& tenant, ContentResponse& content) {
            return presentation_ ? presentation_->decorate(tenant, PageHints{}, content) : Status{};
        },
        [this](const httplib::Request& request) { return baseUrl(request); });
    // The console's list of plugin-registered shops.
    operatorRoutes_->setShopRegistrations(storage.shopRegistrations());
    // The fleet view: every tenant's attention facts in a few aggregate queries (docs/adr/0066).
    operatorRoutes_->setFleet(storage.fleet(), &widgetErrors_);
    // The Feeds page: pull sources, credentials sealed as the CLI seals them.
    if (auto cipher = CredentialCipher::loadOrCreate(options_.dataDir)) {
        operatorFeedRoutes_ = std::make_unique<OperatorFeedRoutes>(
            *operatorAuth_, storage.imports(), files_, worker_, storage.pullSources(), *cipher, storage.clock(),
            options_.feeds.maxUploadBytes, [this](const httplib::Request& request) { return baseUrl(request); });
    } else {
        Log::error("console feeds: " + cipher.error().message);
    }
    imports_.setMetrics(&serviceMetrics_);
    contentIndex_.setMetrics(&serviceMetrics_);
    contentIndex_.setCategoryMappings(&storage.categoryMappings());
    gauges_ = std::make_unique<OperationalGauges>(GaugeSources{&storage.clock(), &storage.metrics(), &eventRoutes_.writer(),
                                                               &contentIndex_, imageBot_.get(), &storage.tenants()});
    contentIndex_.start();
    // Defaults of Debian's cpp-httplib cost ~44 ms per keep-alive request (Nagle plus
    // delayed ACK) and close connections after 5 requests; see docs/adr/0005. Timeouts, idle
    // keep-alive connections and the worker threads are the connection gate's (docs/adr/0057).
    server_.set_tcp_nodelay(true);
    server_.set_keep_alive_max_count(100000);
    // The streaming feed routes take large bodies; every other route is limited in the
    // pre-routing handler, before a body is read into memory.
    server_.set_payload_max_length(options_.feeds.maxUploadBytes);
    registerRoutes();
    worker_.start();
    attributor_.start();
    if (imageBot_) imageBot_->start();
}

ApiServer::~ApiServer() {
    stop();
    if (warmUp_.joinable()) warmUp_.join();
    if (imageBot_) imageBot_->stop();
    attributor_.stop();
    worker_.stop();
    contentIndex_.stop();
}

Result<int> ApiServer::bind() {
    if (options_.metricsPort >= 0) {
        metricsServer_ = std::make_unique<httplib::Server>();
        metricsServer_->new_task_queue = [] { return new httplib::ThreadPool(2); };
        metricsServer_->Get("/metrics", [this](const httplib::Request&, httplib::Response& response) {
            response.set_content(renderMetrics(), "text/plain; version=0.0.4");
        });
        if (options_.metricsPort == 0) {
            metricsPort_ = metricsServer_->bind_to_any_port(options_.metricsHost);
            if (metricsPort_ <= 0) return Error::unavailable("--metrics-listen: cannot listen on " + options_.metricsHost + " (any port)");
        } else if (!metricsServer_->bind_to_port(options_.metricsHost, options_.metricsPort)) {
            return Error::unavailable("--metrics-listen: cannot listen on " + options_.metricsHost + ":" + std::to_string(options_.metricsPort) +
                                      " (in use, or not an address of this machine)");
        } else {
            metricsPort_ = options_.metricsPort;
        }
    }
    if (options_.port == 0) {
        port_ = server_.bind_to_any_port(options_.host);
        if (port_ <= 0) return Error::unavailable("cannot listen on " + options_.host + " (any port)");
    } else {
        if (!server_.bind_to_port(options_.host, options_.port)) {
            return Error::unavailable("cannot listen on " + options_.host + ":" + std::to_string(options_.port) +
                                      " (in use, or not an address of this machine)");
        }
        port_ = options_.port;
    }
    return port_;
}

void ApiServer::setPullWaker(std::function<void()> waker) {
    if (operatorFeedRoutes_) operatorFeedRoutes_->setPullWaker(waker);
    if (shopRoutes_) shopRoutes_->setPullWaker(std::move(waker));
}

void ApiServer::run() {
    serving_ = true;
    if (stopRequested_) {
        serving_ = false;
        return;
    }
    if (!warmUp_.joinable()) warmUp_ = std::thread([this] { loadContent(); });
    std::thread metricsThread;
    if (metricsServer_) {
        metricsThread = std::thread([this] { metricsServer_->listen_after_bind(); });
        // stop() reaches only a server that is running: wait for it before the main one serves.
        for (int wait = 0; wait < 500 && !metricsServer_->is_running(); ++wait) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    server_.serve();
    if (metricsServer_) {
        metricsServer_->stop();
        metricsThread.join();
    }
    serving_ = false;
}

// Shoppers' first requests find their content built, and /readyz says when that is so. A
// tenant whose content cannot be built is logged and does not hold readiness back: its
// widgets answer with the error either way.
void ApiServer::loadContent() {
    auto tenants = storage_.tenants().list();
    if (!tenants) {
        Log::error("readiness: tenants not listed: " + tenants.error().message);
    } else {
        for (const auto& tenant : *tenants) {
            if (tenant.disabled) continue;
            if (readiness_.load() == Readiness::Draining) return;
            if (auto loaded = contentIndex_.snapshot(tenant.id); !loaded) Log::warn("content not loaded: " + loaded.error().message, tenant.apiId);
        }
    }
    auto starting = Readiness::Starting;
    readiness_.compare_exchange_strong(starting, Readiness::Ready);
}

void ApiServer::drain() { readiness_ = Readiness::Draining; }

// cpp-httplib's stop() reaches only a listen loop that is running: one asked for right after
// run() was called (a SIGTERM just after the banner) is asked again until run() has returned.
void ApiServer::stop() {
    readiness_ = Readiness::Draining;  // also ends the content warm-up between tenants
    stopRequested_ = true;
    do {
        if (server_.is_running()) server_.stop();
        if (metricsServer_ && metricsServer_->is_running()) metricsServer_->stop();
        if (serving_) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    } while (serving_);
}

std::string ApiServer::renderMetrics() {
    ExpositionWriter out;
    metrics_.render(out);
    const BuildInfo& build = buildInfo();
    out.family("svc_build_info", "gauge", "The running build: version, commit and the commit's date (always 1).");
    out.sample("svc_build_info", {{"version", build.version}, {"commit", build.commit}, {"date", build.date}}, 1);
    out.family("svc_uptime_seconds", "gauge", "Seconds since the server started.");
    out.sample("svc_uptime_seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count());
    serviceMetrics_.render(out);
    if (gauges_) gauges_->render(out);
    return out.text();
}

std::optional<Tenant> ApiServer::tenantByApiId(const std::string& apiId) {
    auto tenant = tenants_.findByApiId(apiId);
    // A disabled tenant is unknown to every public endpoint: loader, content, CSS, GraphQL.
    if (!tenant || !*tenant || (*tenant)->disabled) return std::nullopt;
    return **tenant;
}

std::string ApiServer::baseUrl(const httplib::Request& request) const {
    bool v6 = options_.host.find(':') != std::string::npos;
    std::string listen = (v6 ? "[" + options_.host + "]" : options_.host) + ":" + std::to_string(port_);
    return publicBaseUrl(request, options_.publicUrl, listen);
}

void ApiServer::registerRoutes() {
    server_.set_pre_routing_handler([this](const httplib::Request& request, httplib::Response& response) {
        requestStarted = std::chrono::steady_clock::now();
        response.set_header("X-Request-Id", RequestIdentity::begin(request, options_.trustedProxies));
        ResponseCompression::takeOverNegotiation(request);
        bool streaming = (request.method == "PUT" && request.path.rfind("/feeds/uploads/", 0) == 0) ||
                         (request.method == "POST" && request.path == "/feeds/validate") ||
                         OperatorFeedRoutes::isUploadPath(request.method, request.path);  // the console's feed uploads
        if (streaming) return httplib::Server::HandlerResponse::Unhandled;
        if (request.get_header_value("Transfer-Encoding").find("chunked") != std::string::npos) {
            sendError(response, Error::invalidField("content-length", "required (chunked bodies are only taken by feed uploads)")
                                    .breaking(RequestRule::LengthRequired)
                                    .withId("svc.http.101"));
            return httplib::Server::HandlerResponse::Handled;
        }
        auto length = parseInt64(request.get_header_value("Content-Length"));
        // Registrations are small and need no credential but IDs: refused before their body is read.
        if (length && request.method == "PUT" && request.path.rfind("/shops/", 0) == 0 && static_cast<size_t>(*length) > options_.shops.maxBodyBytes) {
            sendError(response, Error::resourceExhausted("the body is larger than " + std::to_string(options_.shops.maxBodyBytes) + " bytes").withId("svc.http.102"));
            return httplib::Server::HandlerResponse::Handled;
        }
        if (length && static_cast<size_t>(*length) > options_.maxRequestBytes) {
            sendError(response, Error::resourceExhausted("the request body is larger than " + std::to_string(options_.maxRequestBytes) + " bytes")
                                    .withId("svc.http.102"));
            return httplib::Server::HandlerResponse::Handled;
        }
        return httplib::Server::HandlerResponse::Unhandled;
    });
    server_.set_logger([this](const httplib::Request& request, const httplib::Response& response) {
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - requestStarted).count();
        std::string route = routeLabel(request.method, request.path);
        // Per tenant only for a tenant that exists (the cache answers; an unknown API ID is
        // answered 401/404 and not looked up again), so no request can add a series.
        std::string tenantLabel;
        if (response.status != 401 && response.status != 404) {
            std::string apiId = requestedApiId(route, request.path, request.get_header_value("x-api-id"), request.get_param_value("apiId"));
            if (wellFormedApiId(apiId)) {
                if (auto tenant = tenants_.findByApiId(apiId); tenant && *tenant) tenantLabel = (*tenant)->apiId;
            }
        }
        metrics_.recordRequest(route, response.status, seconds, tenantLabel);
        // The path without its query (upload signatures live there), cut to a length a line can hold.
        Log::access({methodLabel(request.method), request.path.substr(0, 1024), response.status, seconds, response.body.size(),
                     clientAddress(request)});
        RequestIdentity::end();
    });
    server_.set_error_handler([](const httplib::Request&, httplib::Response& response) {
        if (!response.body.empty()) return;
        // A body the connection gate stopped reading: say why (too slow, too large, broken framing).
        if (const GatedStream* stream = GatedStream::current(); stream && stream->bodyFailure() != GatedStream::BodyFailure::None) {
            return sendError(response, stream->bodyError());
        }
        int status = response.status;
        sendError(response, status == 404 ? Error::notFound("no such resource") : Error::invalidArgument("request refused"));
        response.status = status;  // keep httplib's own status (413, 405, ...)
    });
    server_.set_exception_handler([](const httplib::Request&, httplib::Response& response, std::exception_ptr) {
        sendError(response, Error::internal("unexpected failure"));
    });

    if (shopRoutes_) shopRoutes_->registerOn(server_);
    server_.Get("/healthz", [this](const httplib::Request&, httplib::Response& response) {
        auto probe = storage_.tenants().findByApiId("");
        if (!probe) return sendError(response, probe.error());
        response.set_header("Cache-Control", "no-store");
        response.set_content(R"({"status":"ok"})", "application/json");
    });
    // Ready: storage answers and every enabled tenant's content is loaded; 503 while starting and draining.
    server_.Get("/readyz", [this](const httplib::Request&, httplib::Response& response) {
        response.set_header("Cache-Control", "no-store");
        Readiness state = readiness_.load();
        auto probe = storage_.tenants().findByApiId("");
        if (state == Readiness::Ready && probe) return response.set_content(R"({"status":"ready"})", "application/json");
        response.status = 503;
        response.set_header("Retry-After", "1");
        const char* status = !probe ? "storage unavailable" : state == Readiness::Draining ? "draining" : "starting";
        response.set_content(nlohmann::json{{"status", status}}.dump(), "application/json");
    });
    // With a listener of its own, /metrics is not on the public port at all (404 there).
    if (options_.metricsPort < 0) {
        server_.Get("/metrics", [this](const httplib::Request&, httplib::Response& response) {
            response.set_content(renderMetrics(), "text/plain; version=0.0.4");
        });
    }
    server_.Get(std::string("/") + kApiIdPattern + "/loader\\.js",
                [this](const httplib::Request& request, httplib::Response& response) { serveLoader(request, response); });
    server_.Get(std::string("/") + kApiIdPattern + "/content",
                [this](const httplib::Request& request, httplib::Response& response) { serveContent(request, response); });
    // The base stylesheet plus the tenant's CSS: a stylesheet, so a strict CSP needs no inline styles.
    server_.Get(std::string("/") + kApiIdPattern + "/widgets\\.css", [this](const httplib::Request& request, httplib::Response& response) {
        allowAnyOrigin(response);
        auto tenant = tenantByApiId(request.matches[1]);
        if (!tenant) return sendError(response, Error::notFound("unknown API ID"));
        auto base = sdkFiles_.read("svc.css");
        if (!base) return sendError(response, Error::unavailable("svc.css is missing from " + options_.assetsDir + "/sdk"));
        if (!presentation_) return sendError(response, Error::unavailable("widget settings are unavailable"));
        auto css = presentation_->stylesheet(*tenant, base->content);
        if (!css) return sendError(response, css.error());
        response.set_header("Cache-Control", fromOwnPage(request, baseUrl(request)) ? "no-store" : "public, max-age=300");
        ResponseCompression::setBody(request, response, *css, "text/css; charset=utf-8");
    });
    server_.Get("/sdk/([0-9a-f]{16})/([^/]+)", [this](const httplib::Request& request, httplib::Response& response) {
        serveSdkAsset(request, response, request.matches[2], request.matches[1]);
    });
    server_.Get("/sdk/(.+)", [this](const httplib::Request& request, httplib::Response& response) {
        serveSdkAsset(request, response, request.matches[1], std::nullopt);
    });
    server_.Post("/graphql", [this](const httplib::Request& request, httplib::Response& response) { serveGraphql(request, response); });
    server_.Get("/graphql", [this](const httplib::Request& request, httplib::Response& response) {
        if (GraphiqlPage::wanted(request)) return graphiqlPage_.servePage(request, response);
        serveGraphql(request, response);
    });
    graphiqlPage_.registerOn(server_);
    server_.Options("/graphql", [](const httplib::Request&, httplib::Response& response) {
        allowAnyOrigin(response);
        response.set_header("Access-Control-Allow-Methods", "POST, GET, OPTIONS");
        // What GraphQL clients add: Apollo's client awareness and W3C trace context.
        response.set_header("Access-Control-Allow-Headers",
                            "accept, content-type, x-api-id, apollographql-client-name, apollographql-client-version, traceparent");
        response.set_header("Access-Control-Max-Age", "86400");
        response.status = 204;
    });
    feedRoutes_.registerOn(server_);
    eventRoutes_.registerOn(server_);
    setRoutes_.registerOn(server_);
    reportRoutes_.registerOn(server_);
    if (operatorRoutes_) operatorRoutes_->registerOn(server_);
    if (operatorReportRoutes_) operatorReportRoutes_->registerOn(server_);
    if (operatorAccountRoutes_) operatorAccountRoutes_->registerOn(server_);
    if (widgetPreviewRoutes_) widgetPreviewRoutes_->registerOn(server_);
    if (operatorSetRoutes_) operatorSetRoutes_->registerOn(server_);
    if (operatorLearningRoutes_) operatorLearningRoutes_->registerOn(server_);
    if (categoryMappingRoutes_) categoryMappingRoutes_->registerOn(server_);
    if (operatorFeedRoutes_) operatorFeedRoutes_->registerOn(server_);
    if (thumbnailRoutes_) thumbnailRoutes_->registerOn(server_);
    server_.Get("/imagebot", [](const httplib::Request&, httplib::Response& response) { ThumbnailRoutes::serveInfoPage(response); });
    server_.Get("/demo", [](const httplib::Request&, httplib::Response& response) { response.set_redirect("/demo/"); });
    server_.Get("/demo/(.*)", [this](const httplib::Request& request, httplib::Response& response) { serveDemo(request, response); });
}

void ApiServer::serveLoader(const httplib::Request& request, httplib::Response& response) {
    auto tenant = tenantByApiId(request.matches[1]);
    if (!tenant) return sendError(response, Error::notFound("unknown API ID"));
    auto loader = loaderFiles_.read("loader.js");
    if (!loader) return sendError(response, Error::unavailable("loader.js is missing from " + options_.assetsDir));
    std::string script = loader->content;
    replaceAll(script, "__SVC_API_ID__", nlohmann::json(tenant->apiId).dump());
    std::string base = baseUrl(request);
    replaceAll(script, "__SVC_BASE_URL__", nlohmann::json(base).dump());
    replaceAll(script, "__SVC_SDK_URL__", nlohmann::json(base + "/sdk/" + sdkFingerprint_).dump());
    // The tenant's default consent (docs/adr/0083); within the loader's 5 minutes a change reaches every page.
    Consent consent = Consent::Granted;
    if (presentation_) {
        if (auto settings = presentation_->settingsOf(tenant->id)) consent = (*settings)->consent;
    }
    replaceAll(script, "__SVC_CONSENT__", nlohmann::json(consentName(consent)).dump());
    // Short cache: the loader is the stable URL in shops' pages; the SDK behind it may change.
    response.set_header("Cache-Control", "public, max-age=300");
    response.set_content(script, "text/javascript; charset=utf-8");
}

void ApiServer::serveSdkAsset(const httplib::Request& request, httplib::Response& response, const std::string& name,
                              const std::optional<std::string>& version) {
    auto file = sdkFiles_.read(name);
    if (!file) return sendError(response, Error::notFound("no such SDK file"));
    allowAnyOrigin(response);
    // A URL naming this build's fingerprint never changes its bytes: cached for a year by browsers
    // and shared caches (docs/adr/0077). Another fingerprint is a page whose loader.js came from the
    // build before an upgrade: it gets today's file, cached briefly, so a rollout never breaks it.
    if (version && *version == sdkFingerprint_) {
        response.set_header("Cache-Control", "public, max-age=31536000, immutable");
    } else if (version) {
        response.set_header("Cache-Control", "public, max-age=300");
    } else {
        response.set_header("Cache-Control", "public, max-age=3600");
    }
    ResponseCompression::setBody(request, response, file->content, file->contentType, file->gzipped);
}

void ApiServer::serveContent(const httplib::Request& request, httplib::Response& response) {
    allowAnyOrigin(response);
    auto tenant = tenantByApiId(request.matches[1]);
    if (!tenant) return sendError(response, Error::notFound("unknown API ID"));
    // A known tenant's widgets got no content: counted for the console's fleet view (docs/adr/0066).
    auto fail = [&](const Error& error) {
        widgetErrors_.record(tenant->id, error.message, storage_.clock().nowSeconds());
        sendError(response, error);
    };
    size_t queryStart = request.target.find('?');
    std::string_view query = queryStart == std::string::npos ? std::string_view() : std::string_view(request.target).substr(queryStart + 1);
    auto widgets = ContentRequest::fromQueryString(query);
    if (!widgets) return fail(widgets.error());
    auto content = widgetContent_.contentFor(*tenant, *widgets);
    if (!content) return fail(content.error());
    // The page's language hints (hl: <html lang>, hp: first path segment) pick the texts.
    if (!presentation_) return fail(Error::unavailable("widget settings are unavailable"));
    PageHints hints{request.get_param_value("hl"), request.get_param_value("hp")};
    if (auto decorated = presentation_->decorate(*tenant, hints, *content); !decorated) return fail(decorated.error());
    if (imageBot_) {
        // Visual facts (ADR 0038): a SIMILAR list never shows the same picture twice (shops list one
        // photo under several products), and large feed images become svc's thumbnails once made.
        std::string thumbs = baseUrl(request) + "/" + tenant->apiId + "/thumbs/";
        std::function<void(ContentItem&)> useThumbnail = [&](ContentItem& item) {
            if (auto visual = imageBot_->visualFor(tenant->id, item.image); visual && visual->replacementKey) {
                item.image = thumbs + *visual->replacementKey + ".jpg";
            }
            for (auto& alternative : item.alternatives) useThumbnail(alternative);
        };
        for (size_t w = 0; w < content->widgets.size(); ++w) {
            auto& items = content->widgets[w].items;
            if (w < widgets->size() && (*widgets)[w].type == WidgetType::Similar) {
                std::vector<std::optional<uint64_t>> hashes;
                for (const auto& item : items) {
                    auto visual = imageBot_->visualFor(tenant->id, item.image);
                    hashes.push_back(visual ? std::optional<uint64_t>(visual->phash) : std::nullopt);
                }
                auto keep = PerceptualHash::firstOfEachPicture(hashes);
                size_t kept = 0;
                for (size_t i = 0; i < items.size(); ++i) {
                    if (!keep[i]) continue;
                    if (kept != i) items[kept] = std::move(items[i]);
                    ++kept;
                }
                items.resize(kept);
            }
            for (auto& item : items) useThumbnail(item);
        }
    }
    // Shared caches may keep content briefly; the request carries no cookie or secret.
    response.set_header("Cache-Control", fromOwnPage(request, baseUrl(request)) ? "no-store" : "public, max-age=60");
    ResponseCompression::setBody(request, response, content->toJson(), "application/json");
}

void ApiServer::serveGraphql(const httplib::Request& request, httplib::Response& response) {
    auto deadline = std::chrono::steady_clock::now() + options_.graphql.deadline;
    // GraphQL over HTTP: the media type first (406), then the transport (415), then the request.
    allowAnyOrigin(response);
    response.set_header("Cache-Control", "no-store");
    response.set_header("Vary", "Accept, x-api-id");
    auto mediaType = negotiateGraphqlMediaType(request.get_header_value("Accept"));
    auto sendRequestError = [&](int status, const std::string& message) {
        response.status = status;
        graphql::GraphqlError error;
        error.message = message;
        error.errorType = "InvalidRequest";
        nlohmann::ordered_json body{{"errors", nlohmann::ordered_json::array({error.toJson()})},
                                    {"extensions", graphql::GraphqlService::responseExtensions()}};
        response.set_content(body.dump(), graphqlContentType(mediaType.value_or(GraphqlMediaType::Json)));
    };
    if (!mediaType) {
        return sendRequestError(406, std::string("Accept: the response is application/json or ") + kGraphqlResponseJson);
    }
    bool isGet = request.method == "GET";
    if (!isGet && !isJsonContentType(request.get_header_value("Content-Type"))) {
        return sendRequestError(415, "Content-Type: a GraphQL POST body is application/json");
    }
    std::map<std::string, std::string> parameters(request.params.begin(), request.params.end());
    auto parsed = isGet ? graphql::GraphqlService::parseQueryParameters(parameters)
                        : graphql::GraphqlService::parseRequestBody(request.body);
    if (!parsed) return sendRequestError(400, parsed.error().message);
    std::optional<Tenant> tenant;
    std::string apiId = request.get_header_value("x-api-id");
    if (!apiId.empty()) tenant = tenantByApiId(apiId);
    // The core has no clock and sees no socket: it asks this every few fields it resolves.
    // A client that left reads no answer: its work stops (the connection gate tells, ADR 0057).
    parsed->stopCheck = [client = ClientConnection::current(), deadline, milliseconds = options_.graphql.deadline.count()]() -> graphql::StopReason {
        if (client.gone()) return {"clientGone", "the client closed the connection"};
        if (std::chrono::steady_clock::now() >= deadline) {
            return {"deadline", "the request ran past its deadline of " + std::to_string(milliseconds) + " ms"};
        }
        return {};
    };
    auto result = graphql_.execute(*parsed, tenant);
    response.status = graphqlStatusFor(result.outcome, *mediaType);
    if (result.outcome == graphql::GraphqlResponse::Outcome::NotAQuery) response.set_header("Allow", "POST");
    std::string body = graphqlBodyFor(result, *mediaType);
    auto caching = graphqlCachingFor(*parsed, result, tenant.has_value(), body);
    response.headers.erase("Cache-Control");  // no-store until here, for the refusals above
    response.set_header("Cache-Control", caching.cacheControl);
    if (!caching.etag.empty()) {
        response.set_header("ETag", caching.etag);
        if (request.get_header_value("If-None-Match") == caching.etag) {
            response.status = 304;
            return;
        }
    }
    ResponseCompression::setBody(request, response, body, graphqlContentType(*mediaType));
}

void ApiServer::serveDemo(const httplib::Request& request, httplib::Response& response) {
    std::string path = request.matches[1];
    if (path.empty()) path = "index.html";
    std::filesystem::path demoData = std::filesystem::path(options_.dataDir) / "demo";
    bool generated = path == "shop.json" || path.rfind("images/", 0) == 0;
    auto file = StaticFiles(generated ? demoData.string() : options_.assetsDir + "/web-demo").read(path);
    if (!file) return sendError(response, Error::notFound("no such demo page"));
    if (path.size() > 5 && path.compare(path.size() - 5, 5, ".html") == 0) {
        // The demo shop embeds the loader snippet for the demo tenant, like a real shop would.
        auto tenantFile = BoundedJson::parse(readFile(demoData / "tenant.json"), "tenant.json");
        std::string apiId = tenantFile && tenantFile->is_object() ? tenantFile->value("apiId", "") : "";
        bool wellFormed = !apiId.empty() && apiId.find_first_not_of("0123456789abcdefABCDEF-") == std::string::npos;
        if (!wellFormed) return sendError(response, Error::notFound("no demo tenant: run `svc-server demo setup` first"));
        replaceAll(file->content, "__SVC_API_ID__", apiId);
        replaceAll(file->content, "__SVC_SDK_URL__", baseUrl(request));
    }
    response.set_header("Cache-Control", generated ? "public, max-age=86400" : "no-cache");
    ResponseCompression::setBody(request, response, file->content, file->contentType);
}

}  // namespace svc
