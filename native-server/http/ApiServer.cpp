#include "http/ApiServer.hpp"

#include <chrono>
#include <functional>
#include <iostream>
#include <thread>

#include <nlohmann/json.hpp>

#include "app/BuildInfo.hpp"
#include "app/Services.hpp"
#include "http/HttpErrors.hpp"
#include "http/RequestContext.hpp"
#include "http/ResponseCompression.hpp"
#include "log/Log.hpp"
#include "text/StringUtil.hpp"
#include "widget/ContentRequest.hpp"

namespace svc {

namespace {

thread_local std::chrono::steady_clock::time_point requestStarted;

// Behind a trusted proxy every client has the proxy's address: the gate's per-address limits skip it.
ConnectionLimits gateLimits(const ServerOptions& options) {
    ConnectionLimits limits = options.connections;
    limits.unlimitedPeers = options.trustedProxies;
    return limits;
}

// An https public URL means browsers reach the console through TLS: its cookie is Secure.
ServerOptions withPublicUrlRules(ServerOptions options) {
    if (options.publicUrl && options.publicUrl->https()) options.console.secureCookies = true;
    return options;
}

// The event writer reports its commits to the services' metrics.
ServerOptions withEventMetrics(ServerOptions options, ServiceMetrics& metrics) {
    options.events.writer.metrics = &metrics;
    return options;
}

// An API ID as routes accept it: anything else names no tenant.
bool wellFormedApiId(const std::string& apiId) {
    return !apiId.empty() && apiId.size() <= 64 && apiId.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
}

}  // namespace

ApiServer::ApiServer(ServerOptions options, Services& services)
    : options_(withEventMetrics(withPublicUrlRules(std::move(options)), services.metrics())),
      services_(services),
      storage_(services.storage()),
      feedRoutes_(services.tenants(), storage_.imports(), services.imports(), services.files(), services.signer(), services.worker(),
                  storage_.clock(), options_.feeds, [this](const httplib::Request& request) { return baseUrl(request); }),
      eventRoutes_(services.tenants(), storage_.events(), storage_.rateLimits(), storage_.clock(), options_.events),
      setRoutes_(services.tenants(), storage_.content(), storage_.operatorKeys(), services.contentIndex()),
      reportRoutes_(services.tenants(), storage_.events(), storage_.ledger(), services.attributor(), storage_.clock()),
      graphqlRoutes_(services.tenants(), services.graphql(), options_.graphql.deadline, options_.assetsDir,
                     // Image URLs as the SDK's answer shows them: svc's thumbnails once made (ADR 0080).
                     [this](const Tenant& tenant, const httplib::Request& request) {
                         return contentAnswer_->presentationFor(tenant, baseUrl(request));
                     }),
      healthRoutes_(
          storage_.tenants(),
          [this]() -> std::string {
              Readiness state = readiness_.load();
              return state == Readiness::Ready ? "" : state == Readiness::Draining ? "draining" : "starting";
          },
          [this] { return renderMetrics(); }, options_.metricsPort < 0),
      demoRoutes_(options_.dataDir, options_.assetsDir, [this](const httplib::Request& request) { return baseUrl(request); }),
      server_(gateLimits(options_), options_.threads) {
    Storage& storage = storage_;
    if (services.imageBot()) thumbnailRoutes_ = std::make_unique<ThumbnailRoutes>(services.tenants(), *services.imageBot());
    presentation_ = std::make_unique<WidgetPresentation>(storage.widgetSettings());
    // A save on another node of a cluster shows here at once too, not after the cache's ttl.
    services.onSettingsChanged([this](int64_t tenantId) { presentation_->forget(tenantId); });
    contentAnswer_ = std::make_unique<ContentAnswer>(services.recommendations(), *presentation_, services.imageBot());
    shopRoutes_ = std::make_unique<ShopRoutes>(services.tenants(), storage.shopRegistrations(), storage.rateLimits(), storage.clock(), options_.shops);
    auto accounts = std::make_unique<OperatorAccounts>(storage.operators(), storage.rateLimits(), storage.clock(), options_.console.passwordCost,
                                                       options_.console.passwordHashes);
    // One authenticator for every operator route class (sessions, CSRF, operator keys).
    operatorAuth_ = std::make_unique<OperatorAuth>(storage.tenants(), storage.operatorKeys(), std::move(accounts), options_.publicUrl);
    operatorRoutes_ = std::make_unique<OperatorRoutes>(
        *operatorAuth_, storage.tenants(), storage.imports(), services.imports(), storage.widgetSettings(), options_.assetsDir + "/console",
        options_.console, storage.clock(), [this](int64_t tenantId) {
            presentation_->forget(tenantId);
        });
    operatorReportRoutes_ = std::make_unique<OperatorReportRoutes>(*operatorAuth_, storage.ledger(), services.attributor(), storage.clock());
    operatorAccountRoutes_ = std::make_unique<OperatorAccountRoutes>(*operatorAuth_);
    operatorLearningRoutes_ = std::make_unique<OperatorLearningRoutes>(*operatorAuth_, services.contentIndex());
    categoryMappingRoutes_ = std::make_unique<OperatorCategoryMappingRoutes>(
        *operatorAuth_, storage.catalog(), storage.content(), storage.categoryMappings(), services.contentIndex(),
        [this](const Tenant& tenant, const PageHints& hints, ContentResponse& content) {
            return presentation_->decorate(tenant, hints, content);
        });
    widgetPreviewRoutes_ = std::make_unique<WidgetPreviewRoutes>(*operatorAuth_, storage.catalog(), storage.content(),
                                                                 options_.assetsDir + "/console");
    operatorSetRoutes_ = std::make_unique<OperatorSetRoutes>(
        *operatorAuth_, storage.tenants(), storage.content(), storage.catalog(), services.contentIndex(), storage.operators(),
        storage.clock(), SetPhotoStore(options_.dataDir, {}, services.blobs().setPhotos()),
        [this](const Tenant& tenant, ContentResponse& content) {
            return presentation_->decorate(tenant, PageHints{}, content);
        },
        [this](const httplib::Request& request) { return baseUrl(request); });
    // The console's list of plugin-registered shops.
    operatorRoutes_->setShopRegistrations(storage.shopRegistrations());
    // The fleet view: every tenant's attention facts in a few aggregate queries (docs/adr/0066).
    operatorRoutes_->setFleet(storage.fleet(), &widgetErrors_);
    // The Feeds page: pull sources, credentials sealed as the CLI seals them.
    if (auto cipher = CredentialCipher::loadOrCreate(options_.dataDir)) {
        operatorFeedRoutes_ = std::make_unique<OperatorFeedRoutes>(
            *operatorAuth_, storage.imports(), services.files(), services.worker(), storage.pullSources(), *cipher, storage.clock(),
            options_.feeds.maxUploadBytes, [this](const httplib::Request& request) { return baseUrl(request); });
    } else {
        Log::error("console feeds: " + cipher.error().message);
    }
    gauges_ = std::make_unique<OperationalGauges>(GaugeSources{&storage.clock(), &storage.metrics(), &eventRoutes_.writer(),
                                                               &services.contentIndex(), services.imageBot(), &storage.tenants()});
    contentRoutes_ = std::make_unique<ContentRoutes>(
        services.tenants(), options_.assetsDir, *presentation_,
        [this](const httplib::Request& request, httplib::Response& response) { serveContent(request, response); },
        [this](const httplib::Request& request) { return baseUrl(request); });
    // Defaults of Debian's cpp-httplib cost ~44 ms per keep-alive request (Nagle plus
    // delayed ACK) and close connections after 5 requests; see docs/adr/0005. Timeouts, idle
    // keep-alive connections and the worker threads are the connection gate's (docs/adr/0057).
    server_.set_tcp_nodelay(true);
    server_.set_keep_alive_max_count(100000);
    // The streaming feed routes take large bodies; every other route is limited in the
    // pre-routing handler, before a body is read into memory.
    server_.set_payload_max_length(options_.feeds.maxUploadBytes);
    registerRoutes();
}

ApiServer::~ApiServer() {
    stop();
    if (warmUp_.joinable()) warmUp_.join();
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
            if (auto loaded = services_.contentIndex().snapshot(tenant.id); !loaded) Log::warn("content not loaded: " + loaded.error().message, tenant.apiId);
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
    services_.metrics().render(out);
    if (gauges_) gauges_->render(out);
    return out.text();
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
                if (auto tenant = services_.tenants().findByApiId(apiId); tenant && *tenant) tenantLabel = (*tenant)->apiId;
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
    healthRoutes_.registerOn(server_);
    contentRoutes_->registerOn(server_);
    graphqlRoutes_.registerOn(server_);
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
    demoRoutes_.registerOn(server_);
}

void ApiServer::serveContent(const httplib::Request& request, httplib::Response& response) {
    allowAnyOrigin(response);
    auto tenant = publicTenant(services_.tenants(), request.matches[1]);
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
    // The page's language hints (hl: <html lang>, hp: first path segment) pick the texts.
    PageHints hints{request.get_param_value("hl"), request.get_param_value("hp")};
    std::string base = baseUrl(request);
    auto content = contentAnswer_->answer(*tenant, *widgets, hints, base);
    if (!content) return fail(content.error());
    // Shared caches may keep content briefly; the request carries no cookie or secret.
    response.set_header("Cache-Control", fromOwnPage(request, base) ? "no-store" : "public, max-age=60");
    ResponseCompression::setBody(request, response, content->toJson(), "application/json");
}

}  // namespace svc
