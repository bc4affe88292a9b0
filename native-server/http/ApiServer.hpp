#pragma once
// svc-server's HTTP surface on cpp-httplib: SDK delivery, widget content,
// GraphQL, the demo shop, health and metrics.
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "feed/FeedImportService.hpp"
#include "feed/ImportWorker.hpp"
#include "feed/UploadSigner.hpp"
#include "graphql/GraphqlService.hpp"
#include "http/EventRoutes.hpp"
#include "http/FeedRoutes.hpp"
#include "http/GatedServer.hpp"
#include "http/GraphiqlPage.hpp"
#include "http/Metrics.hpp"
#include "metrics/OperationalGauges.hpp"
#include "metrics/ServiceMetrics.hpp"
#include "http/OperatorReportRoutes.hpp"
#include "http/OperatorAccountRoutes.hpp"
#include "http/OperatorFeedRoutes.hpp"
#include "http/OperatorRoutes.hpp"
#include "http/WidgetErrorCounts.hpp"
#include "http/WidgetPreviewRoutes.hpp"
#include "http/StaticFiles.hpp"
#include "net/TrustedProxies.hpp"
#include "security/ServerKeys.hpp"
#include "store/EncryptedFileBlobStore.hpp"
#include "recommend/ContentIndex.hpp"
#include "recommend/RecommendationService.hpp"
#include "http/ReportRoutes.hpp"
#include "http/SetRoutes.hpp"
#include "http/OperatorLearningRoutes.hpp"
#include "http/OperatorCategoryMappingRoutes.hpp"
#include "http/OperatorSetRoutes.hpp"
#include "http/PublicUrl.hpp"
#include "http/ShopRoutes.hpp"
#include "http/ThumbnailRoutes.hpp"
#include "imagebot/ImageBot.hpp"
#include "http/WidgetPresentation.hpp"
#include "recommend/WidgetContentService.hpp"
#include "store/Storage.hpp"
#include "tenant/TenantService.hpp"

namespace svc {

// GraphQL's limits (docs/adr/0053, docs/api/graphql-http.md "Limits").
struct GraphqlRouteOptions {
    graphql::GraphqlLimits limits;
    // Work on one request stops here (steady clock, from the request's arrival at the route).
    std::chrono::milliseconds deadline{2000};
};

struct ServerOptions {
    std::string host = "127.0.0.1";
    int port = 8080;  // 0: any free port (tests)
    // The origin every URL svc hands out starts with (`serve --public-url`, docs/adr/0068); without
    // it, loopback Hosts are echoed and any other Host gets http://host:port of the listen address.
    // An https one also makes the console's session cookie Secure.
    std::optional<PublicUrl> publicUrl;
    std::string dataDir;
    std::string assetsDir;  // holds sdk/, loader/, web-demo/
    int threads = 64;  // workers for requests whose head has arrived (docs/adr/0057)
    ConnectionLimits connections;  // slow clients, idle keep-alive, per-address limits (docs/adr/0057)
    FeedRoutesOptions feeds;
    EventRoutesOptions events;
    ContentIndexOptions content;
    size_t maxRequestBytes = size_t{8} << 20;  // every route but the streaming feed routes
    ShopRoutesOptions shops;
    OperatorConsoleOptions console;  // the operator API and console (docs/adr/0039-0041)
    GraphqlRouteOptions graphql;
    // Peers whose X-Forwarded-For/-Proto, Forwarded and X-Request-Id are believed (docs/adr/0069).
    TrustedProxies trustedProxies;
    // The image bot (docs/adr/0038); off unless set (tests that do not test it fetch nothing).
    // Its dataDir defaults to dataDir.
    std::optional<ImageBotOptions> imageBot;
    // A listener of its own for /metrics (--metrics-listen; docs/adr/0065); metricsPort -1:
    // /metrics stays on the main listener. 0: any free port (tests).
    std::string metricsHost = "127.0.0.1";
    int metricsPort = -1;
};

class ApiServer {
public:
    ApiServer(ServerOptions options, Storage& storage, const ServerKeys& keys);
    ~ApiServer();
    // Binds the listening socket; returns the port or an error naming the address.
    Result<int> bind();
    // Serves until stop(); blocks.
    void run();
    void stop();
    // /readyz answers 503 "draining" from now on (after SIGTERM, before stop()): a load
    // balancer stops sending new requests while the ones under way finish.
    void drain();
    // True once the content of every enabled tenant is loaded (run() starts loading it).
    bool ready() const { return readiness_.load() == Readiness::Ready; }
    int port() const { return port_; }
    int metricsPort() const { return metricsPort_; }  // -1: /metrics is on port()
    // Where scheduled pulls and other imports outside this server report (see Cli's serve).
    ServiceMetrics& serviceMetrics() { return serviceMetrics_; }
    // The whole /metrics page.
    std::string renderMetrics();
    ContentIndex& contentIndex() { return contentIndex_; }
    Attributor& attributor() { return attributor_; }
    // Shop plugin registrations ask for a prompt pull through this (the PullScheduler's wake);
    // set before run().
    void setPullWaker(std::function<void()> waker);
    ImageBot* imageBot() { return imageBot_.get(); }  // null when off

private:
    void registerRoutes();
    std::optional<Tenant> tenantByApiId(const std::string& apiId);
    void serveLoader(const httplib::Request& request, httplib::Response& response);
    void serveContent(const httplib::Request& request, httplib::Response& response);
    void serveGraphql(const httplib::Request& request, httplib::Response& response);
    void serveDemo(const httplib::Request& request, httplib::Response& response);
    void serveSdkAsset(const httplib::Request& request, httplib::Response& response, const std::string& name,
                       const std::optional<std::string>& version);
    std::string baseUrl(const httplib::Request& request) const;

    // First: everything below reports into it until destroyed (the event writer's last commit too).
    ServiceMetrics serviceMetrics_;
    ServerOptions options_;
    StaticFiles sdkFiles_;
    StaticFiles loaderFiles_;
    GraphiqlPage graphiqlPage_;  // GET /graphql for a browser (docs/adr/0084)
    std::string sdkFingerprint_;  // the SDK files' version in their long-cached URLs
    Storage& storage_;
    TenantService tenants_;
    ContentIndex contentIndex_;
    RecommendationService recommendations_;
    WidgetContentService widgetContent_;
    WidgetErrorCounts widgetErrors_;  // content requests answered with an error, per tenant (the fleet view)
    graphql::CursorCodec cursors_;
    graphql::GraphqlService graphql_;
    EncryptedFileBlobStore files_;
    UploadSigner signer_;
    FeedImportService imports_;
    ImportWorker worker_;
    FeedRoutes feedRoutes_;
    EventRoutes eventRoutes_;  // before server_: its writer outlives every request
    SetRoutes setRoutes_;
    AttributionCatalog attributionCatalog_;
    Attributor attributor_;
    ReportRoutes reportRoutes_;
    Metrics metrics_;
    std::unique_ptr<ShopRoutes> shopRoutes_;  // shop plugin registration (docs/adr/0035)
    std::unique_ptr<WidgetPresentation> presentation_;  // texts, CSS, 30-day prices (docs/adr/0028-0030)
    std::unique_ptr<OperatorAuth> operatorAuth_;        // shared by the operator route classes below
    std::unique_ptr<OperatorRoutes> operatorRoutes_;    // /operator/api/ and /console/
    std::unique_ptr<OperatorReportRoutes> operatorReportRoutes_;  // the console's Performance page
    std::unique_ptr<OperatorAccountRoutes> operatorAccountRoutes_;  // /operator/api/operators (docs/adr/0050)
    std::unique_ptr<WidgetPreviewRoutes> widgetPreviewRoutes_;      // /operator/preview/ (docs/adr/0049)
    std::unique_ptr<OperatorLearningRoutes> operatorLearningRoutes_;  // up to where content learned from purchases (docs/adr/0074)
    std::unique_ptr<OperatorCategoryMappingRoutes> categoryMappingRoutes_;  // categories onto the pool's slots (docs/adr/0075)
    std::unique_ptr<OperatorSetRoutes> operatorSetRoutes_;  // the console's sets, photos, templates (docs/adr/0045)
    std::unique_ptr<OperatorFeedRoutes> operatorFeedRoutes_;  // the Feeds page's pull sources, uploads, freshness
    std::unique_ptr<ImageBot> imageBot_;
    std::unique_ptr<ThumbnailRoutes> thumbnailRoutes_;  // /<apiId>/thumbs/ (docs/adr/0038)
    std::unique_ptr<OperationalGauges> gauges_;
    GatedServer server_;
    int port_ = 0;
    // /readyz (docs/operations.md, Running): starting until every enabled tenant's content is
    // loaded, then ready, then draining.
    enum class Readiness { Starting, Ready, Draining };
    std::atomic<Readiness> readiness_{Readiness::Starting};
    std::thread warmUp_;
    std::atomic<bool> stopRequested_{false};
    std::atomic<bool> serving_{false};  // run() is between its start and its return
    void loadContent();
    std::unique_ptr<httplib::Server> metricsServer_;  // with --metrics-listen
    int metricsPort_ = -1;
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

}  // namespace svc
