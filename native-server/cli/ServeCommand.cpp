#include "cli/ServeCommand.hpp"

#include <pthread.h>
#include <signal.h>

#include <iostream>
#include <optional>
#include <thread>

#include "cli/CliOutput.hpp"
#include "cli/DatabaseUrlOption.hpp"
#include "feed/PullRuntime.hpp"
#include "http/PublicUrl.hpp"
#include "log/Log.hpp"
#include "security/ServerKeys.hpp"
#include "store/DataDirLock.hpp"
#include "app/Services.hpp"
#include "app/SystemClock.hpp"
#include "store/Storage.hpp"

namespace svc {
namespace {

Result<std::pair<std::string, int>> parseListen(const std::string& listen, const std::string& option = "--listen") {
    size_t colon = listen.rfind(':');
    if (colon == std::string::npos || colon == 0) return Error::invalidArgument(option + ": expected HOST:PORT, got '" + listen + "'");
    std::string host = listen.substr(0, colon);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    std::string portText = listen.substr(colon + 1);
    if (portText.empty() || portText.find_first_not_of("0123456789") != std::string::npos || portText.size() > 5 ||
        std::stoi(portText) > 65535) {
        return Error::invalidArgument(option + ": port '" + portText + "' is not a number from 0 to 65535");
    }
    return std::pair<std::string, int>{host, std::stoi(portText)};
}


}  // namespace

ServeCommand::ServeCommand(CLI::App& app, const std::string& defaultAssetsDir) : assetsDir_(defaultAssetsDir) {
    graphqlDeadlineMs_ = graphql_.deadline.count();
    serve_ = app.add_subcommand("serve", "Serve the HTTP API, the SDK and the demo shop");
    serve_->add_option("--data-dir", dataDir_, "Data directory (SQLite databases, keys, uploads, demo catalog)")->required();
    DatabaseUrlOption::addTo(*serve_, databaseUrl_, false);
    serve_->add_option("--listen", listen_, "Address to listen on, HOST:PORT")->capture_default_str();
    serve_->add_option("--assets-dir", assetsDir_, "Directory with sdk/, loader/ and web-demo/")->capture_default_str();
    serve_->add_option("--threads", threads_, "Worker threads")->check(CLI::Range(1, 512))->capture_default_str();
    // Behind a reverse proxy every shopper has the proxy's address: raise the limit or switch
    // it off (0) and limit at the proxy (docs/adr/0014).
    serve_->add_option("--events-rate-limit", eventsRateLimit_, "POST /events requests per second per client address (bursts of 4x); 0: off")
        ->check(CLI::Range(0.0, 1e6))
        ->capture_default_str();
    // Each purchase is a claim on an order id (docs/adr/0056): limited on its own, per address and per visitor.
    serve_
        ->add_option("--purchase-rate-limit", purchases_.perAddressPerMinute,
                     "Purchases per minute per client address (an IPv6 /64), bursts of as many; 0: off")
        ->check(CLI::Range(0.0, 1e7))
        ->capture_default_str();
    serve_
        ->add_option("--visitor-purchase-rate-limit", purchases_.perVisitorPerHour,
                     "Purchases per hour per visitor id (cid) of a tenant, bursts of as many; 0: off")
        ->check(CLI::Range(0.0, 1e7))
        ->capture_default_str();
    serve_->add_option("--outbound-allow", outboundAllow_,
                       "HOST[:PORTS] or NETWORK[:PORTS] that feed pulls and the image bot may reach although it is private or "
                       "loopback (repeatable). PORTS is a port (8080), a range (8000-8099) or * (every port); without PORTS only "
                       "80 and 443 are allowed. IPv6 takes brackets before a port: [fd00::/8]:8443. Examples: feeds.lan, "
                       "feeds.lan:8080, 10.20.0.0/16:443, ftp.lan:21 (docs/adr/0061, docs/operations.md, Pulled feeds)");
    // New orders reach the recommendations at most this late plus one build (docs/adr/0074).
    serve_
        ->add_option("--purchase-learning-seconds", purchaseLearningSeconds_,
                     "Recommendations learn from new orders at most this many seconds after the last content build (plus the build)")
        ->check(CLI::Range(1, 86400))
        ->capture_default_str();
    // The fallback behind the database's change notices (docs/adr/0088): what a missed notice costs at most.
    serve_
        ->add_option("--content-poll-seconds", contentPollSeconds_,
                     "How often each tenant's content version is checked in the store; on PostgreSQL the fallback for a missed "
                     "change notice (docs/operations.md, Run a cluster)")
        ->check(CLI::Range(1, 3600))
        ->capture_default_str();
    serve_->add_flag("--no-image-bot", noImageBot_, "Do not fetch product images (no svc thumbnails, no image facts)");
    serve_->add_option("--imagebot-info-url", imageBotInfoUrl_,
                       "Page about the image bot named in its User-Agent (default: <public URL>/imagebot, else "
                       "http://<listen>/imagebot; docs/operations.md, Image bot)");
    serve_->add_option("--public-url", publicUrl_,
                       "The origin shops and browsers reach svc at, e.g. https://svc.example.com (scheme, host, optional port; "
                       "no path): every URL svc hands out starts with it, and an https one makes the console's cookie Secure. "
                       "Without it only loopback Host headers are used in URLs (docs/adr/0068)");

    serve_->add_flag("--secure-cookies", console_.secureCookies,
                     "Mark the console's session cookie Secure (an https --public-url does it too; docs/adr/0039, 0068)");
    serve_
        ->add_option("--password-hash-slots", console_.passwordHashes.slots,
                     "Operator password hashes (Argon2id, 64 MiB each) run at once; more sign-ins wait up to 2 s in a queue of 8, "
                     "then get 503 with Retry-After (docs/adr/0059)")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
    // GraphQL's limits (docs/api/graphql-http.md, Limits; docs/adr/0053).
    serve_->add_option("--metrics-listen", metricsListen_,
                       "Serve /metrics on this HOST:PORT only (not on --listen); default: /metrics on --listen");
    serve_->add_option("--graphql-deadline-ms", graphqlDeadlineMs_, "Milliseconds a GraphQL request may run before it is stopped")
        ->check(CLI::Range(int64_t{1}, int64_t{600000}))
        ->capture_default_str();
    serve_->add_option("--graphql-max-cost", graphql_.limits.maxCost,
                       "Largest GraphQL query cost: each field 1, times the page sizes of the lists it is in")
        ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40))
        ->capture_default_str();
    serve_->add_option("--graphql-max-response-bytes", graphql_.limits.maxResponseBytes, "Largest GraphQL response (its data as JSON)")
        ->check(CLI::Range(size_t{1024}, size_t{1} << 32))
        ->capture_default_str();
    // Blobs every node shares (docs/adr/0090). The secret belongs in the environment or the config
    // file, not on a command line that `ps` shows.
    serve_->add_option("--blob-url", blobUrl_,
                       "Keep feed uploads, held imports and set photos in an S3-compatible bucket instead of the data dir: "
                       "s3://bucket/prefix[?region=eu-central-1][&endpoint=http(s)://host:port] (default: the data dir)");
    serve_->add_option("--s3-access-key-id", blobCredentials_.accessKeyId,
                       "Access key id for --blob-url (default: AWS_ACCESS_KEY_ID)");
    serve_->add_option("--s3-secret-access-key", blobCredentials_.secretAccessKey,
                       "Secret access key for --blob-url; set it as SVC_S3_SECRET_ACCESS_KEY or in the config file "
                       "(default: AWS_SECRET_ACCESS_KEY)");
    connectionLimits_.addTo(*serve_);
    logging_.addTo(*serve_);
    serve_->add_option("--drain-seconds", drainSeconds_,
                       "After SIGTERM, seconds /readyz answers 503 while requests are still served, before the listener closes "
                       "(set it to your load balancer's health-check interval times its fall count)")
        ->check(CLI::Range(0.0, 600.0))
        ->capture_default_str();
}

bool ServeCommand::parsed() const { return serve_->parsed(); }

int ServeCommand::run() {
    graphql_.deadline = std::chrono::milliseconds(graphqlDeadlineMs_);
    // Signals are taken by one thread with sigwait, so shutdown runs as normal code. Blocked
    // before anything starts a thread: threads inherit the mask, and one that does not block
    // them (the events file's checkpointer starts in Storage::open) would take a
    // SIGTERM with the default action and end the process without a clean shutdown.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    auto address = parseListen(listen_);
    if (!address) return CliOutput::fail(address.error());
    if (auto logged = logging_.applyToLog(); !logged) return CliOutput::fail(logged.error());
    auto trustedProxies = logging_.trustedProxies();
    if (!trustedProxies) return CliOutput::fail(trustedProxies.error());
    std::optional<PublicUrl> publicUrl;
    if (!publicUrl_.empty()) {
        auto parsed = PublicUrl::parse(publicUrl_);
        if (!parsed) return CliOutput::fail(parsed.error());
        publicUrl = *parsed;
    } else if (bool v6 = address->first.find(':') != std::string::npos; !isLoopbackHost(v6 ? "[" + address->first + "]" : address->first)) {
        // Not refused: a LAN demo works for loopback visitors. Others get URLs naming the listen address.
        Log::warn("no --public-url: URLs handed to clients that do not use a loopback address name the listen address http://" + listen_ +
                  " (docs/operations.md, One host behind TLS)");
    }
    std::optional<S3BlobBucket> blobBucket;
    if (!blobUrl_.empty()) {
        auto parsed = BlobStores::parseUrl(blobUrl_, blobCredentials_);
        if (!parsed) return CliOutput::fail(parsed.error());
        blobBucket = *parsed;
    }
    std::optional<std::pair<std::string, int>> metricsAddress;
    if (!metricsListen_.empty()) {
        auto parsed = parseListen(metricsListen_, "--metrics-listen");
        if (!parsed) return CliOutput::fail(parsed.error());
        metricsAddress = *parsed;
    }
    // One server per data dir: a second one on the same SQLite files would split the per-node
    // limits and race the background workers. A cluster gives each node a data dir of its own.
    auto dataDirLock = DataDirLock::acquire(dataDir_);
    if (!dataDirLock) return CliOutput::fail(dataDirLock.error());
    auto storage = Storage::open(DatabaseUrlOption::storageLocation(dataDir_, databaseUrl_), systemClock());
    if (!storage) return CliOutput::fail(storage.error());
    auto keys = ServerKeys::loadOrCreate(dataDir_);
    if (!keys) return CliOutput::fail(keys.error());

    ServerOptions options;
    options.host = address->first;
    options.port = address->second;
    options.publicUrl = publicUrl;
    options.dataDir = dataDir_;
    options.blobBucket = blobBucket;
    options.databaseUrl = databaseUrl_;
    options.assetsDir = assetsDir_;
    options.threads = threads_;
    options.connections = connectionLimits_.limits();
    ConnectionLimitsCli::raiseOpenFileLimit();  // before the gate derives its connection limit from it
    options.events.rateLimit.perSecond = eventsRateLimit_;
    options.content.purchaseRefreshSeconds = purchaseLearningSeconds_;
    options.content.pollMilliseconds = contentPollSeconds_ * 1000;
    options.events.rateLimit.burst = eventsRateLimit_ * 4;
    options.events.purchasesPerAddress.perSecond = purchases_.perAddressPerMinute / 60;
    options.events.purchasesPerAddress.burst = purchases_.perAddressPerMinute;
    options.events.purchasesPerVisitor.perSecond = purchases_.perVisitorPerHour / 3600;
    options.events.purchasesPerVisitor.burst = purchases_.perVisitorPerHour;
    options.console = console_;
    options.graphql = graphql_;
    options.trustedProxies = *trustedProxies;
    if (metricsAddress) {
        options.metricsHost = metricsAddress->first;
        options.metricsPort = metricsAddress->second;
    }
    if (!noImageBot_) {
        ImageBotOptions bot;
        bot.allowList = outboundAllow_;
        // The page this server serves about the bot, under the public URL when there is one.
        std::string site = publicUrl ? publicUrl->origin() : "http://" + listen_;
        bot.infoUrl = imageBotInfoUrl_.empty() ? site + "/imagebot" : imageBotInfoUrl_;
        options.imageBot = bot;
    }
    Services services(**storage, *keys, options);
    // Scheduled feed pulls (docs/adr/0026); their imports reach this server's content like pushes.
    auto pulls = PullRuntime::open(dataDir_, **storage, *keys, outboundAllow_, {}, {}, &services.catalogChanged(), &services.files());
    if (!pulls) return CliOutput::fail(pulls.error());
    ApiServer server(options, services);
    auto port = server.bind();
    if (!port) return CliOutput::fail(port.error());
    (*pulls)->imports().setMetrics(&services.metrics());
    (*pulls)->scheduler().setMetrics(&services.metrics());
    // A shop plugin's registration is pulled promptly, not at the next tick (docs/adr/0035).
    PullScheduler* scheduler = &(*pulls)->scheduler();
    server.setPullWaker([scheduler] { scheduler->wake(); });
    (*pulls)->scheduler().start(std::chrono::seconds(30));
    std::cout << "svc-server: listening on http://" << options.host << ":" << *port << std::endl;
    if (server.metricsPort() >= 0) {
        std::cout << "svc-server: metrics on http://" << options.metricsHost << ":" << server.metricsPort() << "/metrics" << std::endl;
    }
    std::thread signalWaiter([&] {
        int received = 0;
        sigwait(&signals, &received);
        // /readyz says "draining" first, so a load balancer moves new requests elsewhere while
        // this server still answers them; then the listener closes and requests under way finish.
        server.drain();
        if (drainSeconds_ > 0 && received == SIGTERM) {
            Log::info("draining for " + std::to_string(drainSeconds_) + " s before stopping");
            std::this_thread::sleep_for(std::chrono::duration<double>(drainSeconds_));
        }
        std::cout << "svc-server: stopping" << std::endl;
        server.stop();
    });
    server.run();
    (*pulls)->scheduler().stop();
    // run() also returns when the socket fails; wake the waiter so it can be joined.
    pthread_kill(signalWaiter.native_handle(), SIGTERM);
    signalWaiter.join();
    return 0;
}

}  // namespace svc
