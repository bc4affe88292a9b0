#pragma once
// svc-server's HTTP server: its lifecycle (bind, run, drain, stop, readiness, the metrics
// listener) and the limits every request meets before routing (body size and framing, the access
// log, error answers). The routes live in route classes; the services they use in app/Services.
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "http/ContentRoutes.hpp"
#include "http/DemoRoutes.hpp"
#include "http/EventRoutes.hpp"
#include "http/FeedRoutes.hpp"
#include "http/GatedServer.hpp"
#include "http/GraphqlRoutes.hpp"
#include "http/HealthRoutes.hpp"
#include "http/Metrics.hpp"
#include "http/OperatorAccountRoutes.hpp"
#include "http/OperatorCategoryMappingRoutes.hpp"
#include "http/OperatorFeedRoutes.hpp"
#include "http/OperatorLearningRoutes.hpp"
#include "http/OperatorReportRoutes.hpp"
#include "http/OperatorRoutes.hpp"
#include "http/OperatorSetRoutes.hpp"
#include "http/ReportRoutes.hpp"
#include "http/ServerOptions.hpp"
#include "http/SetRoutes.hpp"
#include "http/ShopRoutes.hpp"
#include "http/ThumbnailRoutes.hpp"
#include "http/WidgetErrorCounts.hpp"
#include "http/WidgetPresentation.hpp"
#include "http/WidgetPreviewRoutes.hpp"
#include "metrics/OperationalGauges.hpp"
#include "security/ServerKeys.hpp"
#include "store/Storage.hpp"

namespace svc {

class Services;

class ApiServer {
public:
    // `services` outlives the server (its workers stop after the last request is answered).
    ApiServer(ServerOptions options, Services& services);
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
    // The whole /metrics page.
    std::string renderMetrics();
    // Shop plugin registrations ask for a prompt pull through this (the PullScheduler's wake);
    // set before run().
    void setPullWaker(std::function<void()> waker);

private:
    void registerRoutes();
    // Perf's content answer (docs/adr/0080) until it moves into a service of its own.
    void serveContent(const httplib::Request& request, httplib::Response& response);
    std::string baseUrl(const httplib::Request& request) const;

    ServerOptions options_;
    Services& services_;
    Storage& storage_;
    WidgetErrorCounts widgetErrors_;  // content requests answered with an error, per tenant (the fleet view)
    FeedRoutes feedRoutes_;
    EventRoutes eventRoutes_;  // before server_: its writer outlives every request
    SetRoutes setRoutes_;
    ReportRoutes reportRoutes_;
    GraphqlRoutes graphqlRoutes_;
    HealthRoutes healthRoutes_;
    DemoRoutes demoRoutes_;
    Metrics metrics_;
    std::unique_ptr<ShopRoutes> shopRoutes_;  // shop plugin registration (docs/adr/0035)
    std::unique_ptr<WidgetPresentation> presentation_;  // texts, CSS, 30-day prices (docs/adr/0028-0030)
    std::unique_ptr<ContentRoutes> contentRoutes_;      // loader.js, content, widgets.css, the SDK
    std::unique_ptr<OperatorAuth> operatorAuth_;        // shared by the operator route classes below
    std::unique_ptr<OperatorRoutes> operatorRoutes_;    // /operator/api/ and /console/
    std::unique_ptr<OperatorReportRoutes> operatorReportRoutes_;  // the console's Performance page
    std::unique_ptr<OperatorAccountRoutes> operatorAccountRoutes_;  // /operator/api/operators (docs/adr/0050)
    std::unique_ptr<WidgetPreviewRoutes> widgetPreviewRoutes_;      // /operator/preview/ (docs/adr/0049)
    std::unique_ptr<OperatorLearningRoutes> operatorLearningRoutes_;  // up to where content learned from purchases (docs/adr/0074)
    std::unique_ptr<OperatorCategoryMappingRoutes> categoryMappingRoutes_;  // categories onto the pool's slots (docs/adr/0075)
    std::unique_ptr<OperatorSetRoutes> operatorSetRoutes_;  // the console's sets, photos, templates (docs/adr/0045)
    std::unique_ptr<OperatorFeedRoutes> operatorFeedRoutes_;  // the Feeds page's pull sources, uploads, freshness
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
