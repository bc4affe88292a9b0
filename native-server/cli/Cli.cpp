#include "cli/Cli.hpp"

#include <CLI/CLI.hpp>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <iostream>
#include <optional>
#include <thread>

#include <nlohmann/json.hpp>

#include "app/DemoSetup.hpp"
#include "app/BuildInfo.hpp"
#include "app/SystemClock.hpp"
#include "cli/BackupCommands.hpp"
#include "cli/MigrationCommands.hpp"
#include "cli/ConfigurationSources.hpp"
#include "cli/ConnectionLimitsCli.hpp"
#include "cli/ServeLoggingCli.hpp"
#include "log/Log.hpp"
#include "store/DataDirLock.hpp"
#include "cli/FeedSourceCommands.hpp"
#include "feed/PullRuntime.hpp"
#include "feed/ImportJson.hpp"
#include "security/ServerKeys.hpp"
#include "store/EncryptedFileBlobStore.hpp"
#include "app/Services.hpp"
#include "http/ApiServer.hpp"
#include "http/PublicUrl.hpp"
#include "sets/SetJson.hpp"
#include "store/Storage.hpp"
#include "tenant/SecretHasher.hpp"
#include "cli/ContentLearningCli.hpp"
#include "cli/OperatorCli.hpp"
#include "cli/TenantWidgetsCli.hpp"
#include "tenant/TenantService.hpp"
#include "tracking/Commission.hpp"
#include "tracking/CommissionReport.hpp"

namespace svc {
namespace {

int fail(const Error& error) {
    std::cerr << "svc-server: error: " << error.message << "\n";
    return 1;
}

std::string defaultAssetsDir() {
    std::error_code error;
    auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error) return "share/svc";
    return (exe.parent_path().parent_path() / "share" / "svc").string();
}

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

// Purchases per minute per client address and per hour per visitor (docs/adr/0056); 0: off.
struct PurchaseRateLimits {
    double perAddressPerMinute = 60;
    double perVisitorPerHour = 20;
};

int serve(const std::string& dataDir, const std::string& listen, const std::string& assetsDir, int threads, double eventsRateLimit,
          PurchaseRateLimits purchases, const std::vector<std::string>& outboundAllow, const OperatorConsoleOptions& console,
          bool imageBot, const std::string& imageBotInfoUrl, const GraphqlRouteOptions& graphql,
          const ConnectionLimits& connections, const ServeLoggingCli& logging, double drainSeconds,
          const std::string& publicUrlText, const std::string& metricsListen, int purchaseLearningSeconds) {
    // Signals are taken by one thread with sigwait, so shutdown runs as normal code. Blocked
    // before anything starts a thread: threads inherit the mask, and one that does not block
    // them (the events file's checkpointer starts in Storage::open) would take a
    // SIGTERM with the default action and end the process without a clean shutdown.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    auto address = parseListen(listen);
    if (!address) return fail(address.error());
    if (auto logged = logging.applyToLog(); !logged) return fail(logged.error());
    auto trustedProxies = logging.trustedProxies();
    if (!trustedProxies) return fail(trustedProxies.error());
    std::optional<PublicUrl> publicUrl;
    if (!publicUrlText.empty()) {
        auto parsed = PublicUrl::parse(publicUrlText);
        if (!parsed) return fail(parsed.error());
        publicUrl = *parsed;
    } else if (bool v6 = address->first.find(':') != std::string::npos; !isLoopbackHost(v6 ? "[" + address->first + "]" : address->first)) {
        // Not refused: a LAN demo works for loopback visitors. Others get URLs naming the listen address.
        Log::warn("no --public-url: URLs handed to clients that do not use a loopback address name the listen address http://" + listen +
                  " (docs/operations.md, One host behind TLS)");
    }
    std::optional<std::pair<std::string, int>> metricsAddress;
    if (!metricsListen.empty()) {
        auto parsed = parseListen(metricsListen, "--metrics-listen");
        if (!parsed) return fail(parsed.error());
        metricsAddress = *parsed;
    }
    // One server per data dir: a second one would split traffic between two copies of the
    // in-memory state (sessions, drafts, rate limits) and race the background workers.
    auto dataDirLock = DataDirLock::acquire(dataDir);
    if (!dataDirLock) return fail(dataDirLock.error());
    auto storage = Storage::open(dataDir, systemClock());
    if (!storage) return fail(storage.error());
    auto keys = ServerKeys::loadOrCreate(dataDir);
    if (!keys) return fail(keys.error());

    ServerOptions options;
    options.host = address->first;
    options.port = address->second;
    options.publicUrl = publicUrl;
    options.dataDir = dataDir;
    options.assetsDir = assetsDir;
    options.threads = threads;
    options.connections = connections;
    ConnectionLimitsCli::raiseOpenFileLimit();  // before the gate derives its connection limit from it
    options.events.rateLimit.perSecond = eventsRateLimit;
    options.content.purchaseRefreshSeconds = purchaseLearningSeconds;
    options.events.rateLimit.burst = eventsRateLimit * 4;
    options.events.purchasesPerAddress.perSecond = purchases.perAddressPerMinute / 60;
    options.events.purchasesPerAddress.burst = purchases.perAddressPerMinute;
    options.events.purchasesPerVisitor.perSecond = purchases.perVisitorPerHour / 3600;
    options.events.purchasesPerVisitor.burst = purchases.perVisitorPerHour;
    options.console = console;
    options.graphql = graphql;
    options.trustedProxies = *trustedProxies;
    if (metricsAddress) {
        options.metricsHost = metricsAddress->first;
        options.metricsPort = metricsAddress->second;
    }
    if (imageBot) {
        ImageBotOptions bot;
        bot.allowList = outboundAllow;
        // The page this server serves about the bot, under the public URL when there is one.
        std::string site = publicUrl ? publicUrl->origin() : "http://" + listen;
        bot.infoUrl = imageBotInfoUrl.empty() ? site + "/imagebot" : imageBotInfoUrl;
        options.imageBot = bot;
    }
    Services services(**storage, *keys, options);
    // Scheduled feed pulls (docs/adr/0026); their imports reach this server's content like pushes.
    auto pulls = PullRuntime::open(dataDir, **storage, *keys, outboundAllow, {}, {}, &services.catalogChanged());
    if (!pulls) return fail(pulls.error());
    ApiServer server(options, services);
    auto port = server.bind();
    if (!port) return fail(port.error());
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
        if (drainSeconds > 0 && received == SIGTERM) {
            Log::info("draining for " + std::to_string(drainSeconds) + " s before stopping");
            std::this_thread::sleep_for(std::chrono::duration<double>(drainSeconds));
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

// What every data-dir command needs: storage, keys, the encrypted file store and imports.
struct DataDirContext {
    std::unique_ptr<Storage> storage;
    std::optional<ServerKeys> keys;
    std::unique_ptr<EncryptedFileBlobStore> files;
    std::unique_ptr<FeedImportService> imports;
    // No subscribers in a CLI process: a running server learns of its imports through the content generation.
    std::unique_ptr<CatalogChanged> catalogChanged;

    static Result<DataDirContext> open(const std::string& dataDir) {
        DataDirContext context;
        auto storage = Storage::open(dataDir, systemClock());
        if (!storage) return storage.error();
        context.storage = std::move(*storage);
        auto keys = ServerKeys::loadOrCreate(dataDir);
        if (!keys) return keys.error();
        context.keys = *keys;
        context.files = std::make_unique<EncryptedFileBlobStore>(dataDir + "/uploads", context.keys->fileEncryptionKey());
        context.imports = std::make_unique<FeedImportService>(context.storage->catalog(), context.storage->imports(), *context.files,
                                                               context.storage->clock());
        context.catalogChanged = std::make_unique<CatalogChanged>(context.storage->content());
        context.catalogChanged->publishFrom(*context.imports);
        return context;
    }

    Result<Tenant> tenant(const std::string& apiId) {
        auto found = storage->tenants().findByApiId(apiId);
        if (!found) return found.error();
        if (!*found) return Error::notFound("--api-id: no tenant with API ID " + apiId);
        return **found;
    }
};

void print(const nlohmann::ordered_json& json) { std::cout << json.dump(2) << std::endl; }

// Exit codes of import commands: 0 applied, 1 failed, 3 held for confirmation.
int importExitCode(const FeedImportRecord& record) {
    if (record.status == ImportStatus::Failed) {
        std::cerr << "svc-server: import " << record.id << " failed: " << record.message << "\n";
        return 1;
    }
    if (record.status == ImportStatus::Held) {
        std::cerr << "svc-server: import " << record.id << " " << record.message << "\n";
        return 3;
    }
    return 0;
}

}  // namespace

int runCli(int argc, char** argv) {
    CLI::App app{"svc-server: product-recommendation widgets, feeds, GraphQL and tracking for online shops"};
    const BuildInfo& build = buildInfo();
    app.set_version_flag("--version", "svc-server " + build.version + " (commit " + build.commit + ", " + build.date + ")",
                         "Print the version, the commit and its date, then exit");
    app.require_subcommand(1);
    std::string dataDir;
    std::string assetsDir = defaultAssetsDir();
    std::string apiId;

    auto* serveCommand = app.add_subcommand("serve", "Serve the HTTP API, the SDK and the demo shop");
    std::string listen = "127.0.0.1:8080";
    int threads = 64;
    serveCommand->add_option("--data-dir", dataDir, "Data directory (SQLite databases, keys, uploads, demo catalog)")->required();
    serveCommand->add_option("--listen", listen, "Address to listen on, HOST:PORT")->capture_default_str();
    serveCommand->add_option("--assets-dir", assetsDir, "Directory with sdk/, loader/ and web-demo/")->capture_default_str();
    serveCommand->add_option("--threads", threads, "Worker threads")->check(CLI::Range(1, 512))->capture_default_str();
    // Behind a reverse proxy every shopper has the proxy's address: raise the limit or switch
    // it off (0) and limit at the proxy (docs/adr/0014).
    double eventsRateLimit = 100;
    serveCommand->add_option("--events-rate-limit", eventsRateLimit, "POST /events requests per second per client address (bursts of 4x); 0: off")
        ->check(CLI::Range(0.0, 1e6))
        ->capture_default_str();
    // Each purchase is a claim on an order id (docs/adr/0056): limited on its own, per address and per visitor.
    PurchaseRateLimits purchaseLimits;
    serveCommand
        ->add_option("--purchase-rate-limit", purchaseLimits.perAddressPerMinute,
                     "Purchases per minute per client address (an IPv6 /64), bursts of as many; 0: off")
        ->check(CLI::Range(0.0, 1e7))
        ->capture_default_str();
    serveCommand
        ->add_option("--visitor-purchase-rate-limit", purchaseLimits.perVisitorPerHour,
                     "Purchases per hour per visitor id (cid) of a tenant, bursts of as many; 0: off")
        ->check(CLI::Range(0.0, 1e7))
        ->capture_default_str();
    std::vector<std::string> outboundAllow;
    serveCommand->add_option("--outbound-allow", outboundAllow,
                             "HOST[:PORTS] or NETWORK[:PORTS] that feed pulls and the image bot may reach although it is private or "
                             "loopback (repeatable). PORTS is a port (8080), a range (8000-8099) or * (every port); without PORTS only "
                             "80 and 443 are allowed. IPv6 takes brackets before a port: [fd00::/8]:8443. Examples: feeds.lan, "
                             "feeds.lan:8080, 10.20.0.0/16:443, ftp.lan:21 (docs/adr/0061, docs/operations.md, Pulled feeds)");
    // New orders reach the recommendations at most this late plus one build (docs/adr/0074).
    int purchaseLearningSeconds = 60;
    serveCommand
        ->add_option("--purchase-learning-seconds", purchaseLearningSeconds,
                     "Recommendations learn from new orders at most this many seconds after the last content build (plus the build)")
        ->check(CLI::Range(1, 86400))
        ->capture_default_str();
    bool noImageBot = false;
    serveCommand->add_flag("--no-image-bot", noImageBot, "Do not fetch product images (no svc thumbnails, no image facts)");
    std::string imageBotInfoUrl;
    serveCommand->add_option("--imagebot-info-url", imageBotInfoUrl,
                             "Page about the image bot named in its User-Agent (default: <public URL>/imagebot, else "
                             "http://<listen>/imagebot; docs/operations.md, Image bot)");
    std::string publicUrl;
    serveCommand->add_option("--public-url", publicUrl,
                             "The origin shops and browsers reach svc at, e.g. https://svc.example.com (scheme, host, optional port; "
                             "no path): every URL svc hands out starts with it, and an https one makes the console's cookie Secure. "
                             "Without it only loopback Host headers are used in URLs (docs/adr/0068)");

    OperatorConsoleOptions console;
    serveCommand->add_flag("--secure-cookies", console.secureCookies,
                           "Mark the console's session cookie Secure (an https --public-url does it too; docs/adr/0039, 0068)");
    serveCommand
        ->add_option("--password-hash-slots", console.passwordHashes.slots,
                     "Operator password hashes (Argon2id, 64 MiB each) run at once; more sign-ins wait up to 2 s in a queue of 8, "
                     "then get 503 with Retry-After (docs/adr/0059)")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
    // GraphQL's limits (docs/api/graphql-http.md, Limits; docs/adr/0053).
    GraphqlRouteOptions graphql;
    int64_t graphqlDeadlineMs = graphql.deadline.count();
    std::string metricsListen;
    serveCommand->add_option("--metrics-listen", metricsListen,
                             "Serve /metrics on this HOST:PORT only (not on --listen); default: /metrics on --listen");
    serveCommand->add_option("--graphql-deadline-ms", graphqlDeadlineMs, "Milliseconds a GraphQL request may run before it is stopped")
        ->check(CLI::Range(int64_t{1}, int64_t{600000}))
        ->capture_default_str();
    serveCommand->add_option("--graphql-max-cost", graphql.limits.maxCost,
                             "Largest GraphQL query cost: each field 1, times the page sizes of the lists it is in")
        ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40))
        ->capture_default_str();
    serveCommand->add_option("--graphql-max-response-bytes", graphql.limits.maxResponseBytes, "Largest GraphQL response (its data as JSON)")
        ->check(CLI::Range(size_t{1024}, size_t{1} << 32))
        ->capture_default_str();
    ConnectionLimitsCli connectionLimits;
    connectionLimits.addTo(*serveCommand);
    ServeLoggingCli logging;
    logging.addTo(*serveCommand);
    double drainSeconds = 0;
    serveCommand->add_option("--drain-seconds", drainSeconds,
                             "After SIGTERM, seconds /readyz answers 503 while requests are still served, before the listener closes "
                             "(set it to your load balancer's health-check interval times its fall count)")
        ->check(CLI::Range(0.0, 600.0))
        ->capture_default_str();
    OperatorCli operatorAccounts;
    operatorAccounts.addTo(app, dataDir);
    ContentLearningCli contentLearning;
    contentLearning.addTo(app);
    BackupCommands backups;
    MigrationCommands migrations;
    backups.addTo(app);
    migrations.addTo(app);

    auto* tenantCommand = app.add_subcommand("tenant", "Manage tenants (shops)");
    tenantCommand->require_subcommand(1);
    auto* tenantCreate = tenantCommand->add_subcommand("create", "Create a tenant; prints its API ID, API secret (shown once) and feed ID");
    std::string tenantName;
    tenantCreate->add_option("--data-dir", dataDir, "Data directory")->required();
    tenantCreate->add_option("--name", tenantName, "Shop name")->required();
    auto* tenantConfigure = tenantCommand->add_subcommand("configure", "Change a tenant's settings (at least one)");
    std::optional<double> maxDeleteShare;
    std::optional<std::string> currency;
    tenantConfigure->add_option("--data-dir", dataDir, "Data directory")->required();
    tenantConfigure->add_option("--api-id", apiId, "The tenant's API ID")->required();
    auto* shareOption = tenantConfigure->add_option(
        "--max-delete-share", maxDeleteShare, "A full feed that would delete more than this share of the catalog (0 to 1) is held for confirmation");
    shareOption->check(CLI::Range(0.0, 1.0));
    // The currencies of the GraphQL API's CurrencyCode enum (docs/api/schema.graphql).
    auto* currencyOption = tenantConfigure->add_option("--currency", currency, "The currency of the shop's prices: EUR, PLN or USD");
    currencyOption->check(CLI::IsMember({"EUR", "PLN", "USD"}));
    // The commission contract (docs/adr/0021).
    std::optional<int64_t> windowDays;
    std::optional<std::string> commissionRate;
    std::vector<std::string> widgetRates;
    auto* windowOption = tenantConfigure->add_option("--attribution-window-days", windowDays,
                                                     "Days an interaction earns the orders after it (1 to 365; default 30)");
    windowOption->check(CLI::Range(int64_t{1}, int64_t{365}));
    auto* rateOption = tenantConfigure->add_option("--commission-rate", commissionRate, "The commission rate, e.g. 5% or 7.25% (default 0%)");
    auto* widgetRateOption = tenantConfigure->add_option(
        "--commission-rate-for", widgetRates, "A rate for one widget type, e.g. SET=7.5% (repeatable; replaces all earlier ones)");
    tenantConfigure->callback([shareOption, currencyOption, windowOption, rateOption, widgetRateOption] {
        if (shareOption->count() + currencyOption->count() + windowOption->count() + rateOption->count() + widgetRateOption->count() == 0) {
            throw CLI::ValidationError("tenant configure",
                                       "give at least one of --max-delete-share, --currency, --attribution-window-days, --commission-rate, "
                                       "--commission-rate-for");
        }
    });

    TenantWidgetsCli tenantWidgets;  // tenant widgets, tenant texts
    tenantWidgets.addTo(*tenantCommand, dataDir);

    auto* reportCommand = app.add_subcommand("report", "Commission reports (the server books purchases as they arrive)");
    reportCommand->require_subcommand(1);
    std::string reportFrom, reportTo;
    auto* reportSummary = reportCommand->add_subcommand("summary", "Totals by widget, touchpoint and test group, as JSON");
    auto* reportLedger = reportCommand->add_subcommand("ledger", "Every ledger entry (sales and returns), as CSV");
    for (auto* command : {reportSummary, reportLedger}) {
        command->add_option("--data-dir", dataDir, "Data directory")->required();
        command->add_option("--api-id", apiId, "The tenant's API ID")->required();
        command->add_option("--from", reportFrom, "First day, YYYY-MM-DD (UTC; default 30 days before --to)");
        command->add_option("--to", reportTo, "Last day, YYYY-MM-DD (UTC; default today)");
    }

    auto* feedCommand = app.add_subcommand("feed", "Product feeds");
    feedCommand->require_subcommand(1);
    std::string feedFile;
    FeedImportOptions importOptions;
    std::string delimiter = ";";
    bool force = false;
    int64_t importId = 0;
    size_t historyLimit = 20;
    std::string feedName = "default";
    std::string historyFeed;
    auto addFeedOptions = [&](CLI::App* command) {
        command->add_option("--data-dir", dataDir, "Data directory")->required();
        command->add_option("--api-id", apiId, "The tenant's API ID")->required();
        command->add_flag("--delta", importOptions.delta, "Delta feed: only the listed products change");
        command->add_option("--identifier", importOptions.identifier, "Column that identifies a record")->capture_default_str();
        command->add_option("--delimiter", delimiter, "Column separator (one character)")->capture_default_str();
        command->add_option("FILE", feedFile, "CSV feed file")->required();
    };
    auto* feedImport = feedCommand->add_subcommand("import",
        "Import a CSV feed file now; prints the history entry as JSON. Exit code 0 applied, 1 failed, 3 held");
    addFeedOptions(feedImport);
    feedImport->add_flag("--force", force, "Apply a full feed even if it would delete more than the tenant's max delete share");
    feedImport->add_option("--feed", feedName, "Which of the tenant's feeds this is, e.g. default or stock")->capture_default_str();
    auto* feedValidate = feedCommand->add_subcommand("validate",
        "Dry run: report row errors and what importing FILE would change, without changing anything");
    addFeedOptions(feedValidate);
    auto* feedHistory = feedCommand->add_subcommand("history", "The tenant's imports, newest first");
    feedHistory->add_option("--data-dir", dataDir, "Data directory")->required();
    feedHistory->add_option("--api-id", apiId, "The tenant's API ID")->required();
    feedHistory->add_option("--limit", historyLimit, "How many")->check(CLI::Range(1, 1000))->capture_default_str();
    feedHistory->add_option("--feed", historyFeed, "Only this feed's imports");
    auto addImportIdOptions = [&](CLI::App* command) {
        command->add_option("--data-dir", dataDir, "Data directory")->required();
        command->add_option("--api-id", apiId, "The tenant's API ID")->required();
        command->add_option("--import-id", importId, "The import's id (see `feed history`)")->required()->check(CLI::PositiveNumber);
    };
    auto* feedShow = feedCommand->add_subcommand("show", "One import with its row errors");
    addImportIdOptions(feedShow);
    auto* feedConfirm = feedCommand->add_subcommand("confirm", "Apply a held import");
    addImportIdOptions(feedConfirm);
    auto* feedDiscard = feedCommand->add_subcommand("discard", "Drop a held import without applying it");
    addImportIdOptions(feedDiscard);
    FeedSourceCommands feedSources(*feedCommand);

    auto* demoCommand = app.add_subcommand("demo", "The demo shop");
    demoCommand->require_subcommand(1);
    auto* demoSetup = demoCommand->add_subcommand("setup", "Create the demo tenant, generate the demo catalog and import it");
    demoSetup->add_option("--data-dir", dataDir, "Data directory")->required();
    demoSetup->add_option("--assets-dir", assetsDir, "Directory with content-pool/ (the default set templates)")->capture_default_str();

    auto* setsCommand = app.add_subcommand("sets", "A tenant's custom sets and photo sets");
    setsCommand->require_subcommand(1);
    std::string setsFile, setId, setKind = "custom";
    auto* setsImport = setsCommand->add_subcommand("import", "Create or replace the sets of a JSON file ({\"customSets\": [...], \"photoSets\": [...]}); all or nothing");
    setsImport->add_option("FILE", setsFile, "JSON file")->required();
    auto* setsList = setsCommand->add_subcommand("list", "The tenant's sets as JSON (the import format)");
    auto* setsDelete = setsCommand->add_subcommand("delete", "Delete one set");
    setsDelete->add_option("--kind", setKind, "custom or photo")->check(CLI::IsMember({"custom", "photo"}));
    setsDelete->add_option("ID", setId, "The set's id")->required();
    for (auto* command : {setsImport, setsList, setsDelete}) {
        command->add_option("--data-dir", dataDir, "Data directory")->required();
        command->add_option("--api-id", apiId, "The tenant's API ID")->required();
    }
    auto* poolCommand = app.add_subcommand("content-pool", "The operator's set templates, shared by every tenant");
    poolCommand->require_subcommand(1);
    auto* poolImport = poolCommand->add_subcommand("import", "Create or replace the templates of a JSON file ({\"templates\": [...]}); all or nothing");
    poolImport->add_option("FILE", setsFile, "JSON file")->required();
    auto* poolList = poolCommand->add_subcommand("list", "The templates as JSON (the import format)");
    auto* poolDelete = poolCommand->add_subcommand("delete", "Delete one template");
    poolDelete->add_option("ID", setId, "The template's id")->required();
    auto* operatorCommand = app.add_subcommand("operator-key", "Keys for the operator's HTTP endpoints (Authorization: Bearer <key>)");
    operatorCommand->require_subcommand(1);
    std::string keyName;
    auto* keyCreate = operatorCommand->add_subcommand("create", "Create a key; prints it once (only its hash is stored)");
    keyCreate->add_option("NAME", keyName, "Who or what uses the key")->required();
    auto* keyList = operatorCommand->add_subcommand("list", "The keys' names");
    auto* keyDelete = operatorCommand->add_subcommand("delete", "Revoke a key");
    keyDelete->add_option("NAME", keyName, "The key's name")->required();
    for (auto* command : {poolImport, poolList, poolDelete, keyCreate, keyList, keyDelete}) {
        command->add_option("--data-dir", dataDir, "Data directory")->required();
    }

    // Every serve option also from SVC_* variables and a --config file (docs/operations.md, Configuration).
    ConfigurationSources::enable(app, *serveCommand);
    try {
        // CLI11 takes a vector in reverse order, without the program's name.
        auto arguments = ConfigurationSources::normalized(argc, argv);
        arguments.erase(arguments.begin());
        std::reverse(arguments.begin(), arguments.end());
        app.parse(arguments);
    } catch (const CLI::ParseError& error) {
        return app.exit(error) == 0 ? 0 : 2;
    }

    if (serveCommand->parsed()) {
        graphql.deadline = std::chrono::milliseconds(graphqlDeadlineMs);
        return serve(dataDir, listen, assetsDir, threads, eventsRateLimit, purchaseLimits, outboundAllow, console, !noImageBot, imageBotInfoUrl,
                     graphql, connectionLimits.limits(), logging, drainSeconds, publicUrl, metricsListen, purchaseLearningSeconds);
    }
    if (operatorAccounts.parsed()) return operatorAccounts.run(dataDir);
    if (contentLearning.parsed()) return contentLearning.run();
    if (backups.parsed()) return backups.run();
    if (migrations.parsed()) return migrations.run();
    if (feedSources.parsed()) return feedSources.run();

    auto context = DataDirContext::open(dataDir);
    if (!context) return fail(context.error());
    auto& storage = *context->storage;

    if (tenantWidgets.parsed()) return tenantWidgets.run(storage);
    if (tenantCreate->parsed()) {
        auto created = TenantService(storage.tenants()).create(tenantName);
        if (!created) return fail(created.error());
        print({{"apiId", created->tenant.apiId}, {"apiSecret", created->apiSecret}, {"feedId", created->tenant.feedId}});
        return 0;
    }
    if (tenantConfigure->parsed()) {
        auto tenant = context->tenant(apiId);
        if (!tenant) return fail(tenant.error());
        if (maxDeleteShare) {
            if (auto status = storage.tenants().setMaxDeleteShare(tenant->id, *maxDeleteShare); !status) return fail(status.error());
            tenant->maxDeleteShare = *maxDeleteShare;
        }
        if (currency) {
            if (auto status = storage.tenants().setCurrency(tenant->id, *currency); !status) return fail(status.error());
            tenant->currency = *currency;
        }
        if (windowDays || commissionRate || !widgetRates.empty()) {
            auto rates = CommissionRates::fromText(tenant->commissionRates);
            if (!rates) return fail(rates.error());
            if (commissionRate) {
                auto rate = parseRate(*commissionRate, "--commission-rate");
                if (!rate) return fail(rate.error());
                rates->basisPoints = *rate;
            }
            if (!widgetRates.empty()) {
                rates->byWidget.clear();
                for (const auto& text : widgetRates) {
                    size_t equals = text.find('=');
                    auto widget = parseWidgetType(text.substr(0, equals == std::string::npos ? 0 : equals));
                    if (!widget || *widget == WidgetType::SetCompose) {
                        return fail(Error::invalidArgument("--commission-rate-for: '" + text + "' is not WIDGET=rate with WIDGET one of SET, SIMILAR, SET-Custom"));
                    }
                    auto rate = parseRate(text.substr(equals + 1), "--commission-rate-for");
                    if (!rate) return fail(rate.error());
                    rates->byWidget[*widget] = *rate;
                }
            }
            int64_t window = windowDays.value_or(tenant->attributionWindowDays);
            if (auto status = storage.tenants().setCommission(tenant->id, window, rates->toText()); !status) return fail(status.error());
            tenant->attributionWindowDays = window;
            tenant->commissionRates = rates->toText();
        }
        print({{"apiId", tenant->apiId},
               {"maxDeleteShare", tenant->maxDeleteShare},
               {"currency", tenant->currency},
               {"attributionWindowDays", tenant->attributionWindowDays},
               {"commissionRates", tenant->commissionRates}});
        return 0;
    }
    if (reportSummary->parsed() || reportLedger->parsed()) {
        auto tenant = context->tenant(apiId);
        if (!tenant) return fail(tenant.error());
        auto period = reportPeriod(reportFrom, reportTo, storage.clock().nowSeconds());
        if (!period) return fail(period.error());
        // The server books purchases; what it has not booked yet is not in the report.
        auto pending = storage.ledger().pendingPurchases(tenant->id);
        if (!pending) return fail(pending.error());
        if (*pending > 0) {
            std::cerr << "svc-server: " << *pending << " purchases are not booked yet (svc-server serve books them within seconds)" << std::endl;
        }
        auto entries = storage.ledger().entries(tenant->id, period->first, period->second);
        if (!entries) return fail(entries.error());
        if (reportLedger->parsed()) {
            std::cout << CommissionReport::ledgerCsv(*entries);
            return 0;
        }
        auto events = storage.ledger().eventCounts(tenant->id, period->first, period->second);
        if (!events) return fail(events.error());
        auto report = CommissionReport::build(period->first, period->second, *events, *entries);
        if (!report) return fail(report.error());
        print(report->toJson());
        return 0;
    }
    if (feedImport->parsed() || feedValidate->parsed()) {
        if (delimiter.size() != 1) return fail(Error::invalidArgument("--delimiter: must be exactly one character"));
        importOptions.delimiter = delimiter[0];
        auto tenant = context->tenant(apiId);
        if (!tenant) return fail(tenant.error());
        if (feedValidate->parsed()) {
            auto outcome = context->imports->dryRunFile(*tenant, feedFile, importOptions);
            if (!outcome) return fail(outcome.error());
            print(dryRunJson(outcome->report, importOptions.delta, exceedsDeleteShare(outcome->report, importOptions.delta, tenant->maxDeleteShare)));
            return 0;
        }
        auto outcome = context->imports->importFile(*tenant, feedFile, importOptions, "cli", force, feedName);
        if (!outcome) return fail(outcome.error());
        print(importRecordJson(outcome->record, true));
        return importExitCode(outcome->record);
    }
    if (feedHistory->parsed()) {
        auto tenant = context->tenant(apiId);
        if (!tenant) return fail(tenant.error());
        if (!historyFeed.empty()) {
            if (auto valid = validateFeedName(historyFeed, "--feed"); !valid) return fail(valid.error());
        }
        auto records = storage.imports().list(tenant->id, historyFeed, historyLimit);
        if (!records) return fail(records.error());
        auto list = nlohmann::ordered_json::array();
        for (const auto& record : *records) list.push_back(importRecordJson(record, false));
        print({{"imports", list}});
        return 0;
    }
    if (feedShow->parsed() || feedConfirm->parsed() || feedDiscard->parsed()) {
        auto tenant = context->tenant(apiId);
        if (!tenant) return fail(tenant.error());
        if (feedConfirm->parsed()) {
            auto outcome = context->imports->confirm(*tenant, importId);
            if (!outcome) return fail(outcome.error());
            print(importRecordJson(outcome->record, true));
            return importExitCode(outcome->record);
        }
        if (feedDiscard->parsed()) {
            auto record = context->imports->discard(*tenant, importId);
            if (!record) return fail(record.error());
            print(importRecordJson(*record, false));
            return 0;
        }
        auto record = storage.imports().find(tenant->id, importId);
        if (!record) return fail(record.error());
        if (!*record) return fail(Error::notFound("--import-id: import " + std::to_string(importId) + " does not exist"));
        print(importRecordJson(**record, true));
        return 0;
    }
    if (setsImport->parsed() || poolImport->parsed()) {
        std::ifstream in(setsFile, std::ios::binary);
        if (!in) return fail(Error::notFound("FILE: cannot read " + setsFile));
        std::stringstream text;
        text << in.rdbuf();
        auto file = setFileFromJson(text.str());
        if (!file) return fail(Error::invalidArgument(setsFile + ": " + file.error().message));
        std::optional<int64_t> tenantId;
        if (setsImport->parsed()) {
            auto tenant = context->tenant(apiId);
            if (!tenant) return fail(tenant.error());
            tenantId = tenant->id;
        }
        if (auto status = storage.content().importFile(tenantId, *file); !status) return fail(status.error());
        print({{"templates", file->templates.size()}, {"customSets", file->customSets.size()}, {"photoSets", file->photoSets.size()}});
        return 0;
    }
    if (setsList->parsed() || setsDelete->parsed()) {
        auto tenant = context->tenant(apiId);
        if (!tenant) return fail(tenant.error());
        if (setsDelete->parsed()) {
            auto removed = storage.content().deleteSet(tenant->id, setKind == "photo" ? SetKind::Photo : SetKind::Custom, setId);
            if (!removed) return fail(removed.error());
            if (!*removed) return fail(Error::notFound("ID: no " + setKind + " set " + setId));
            return 0;
        }
        auto custom = storage.content().customSets(tenant->id);
        if (!custom) return fail(custom.error());
        auto photo = storage.content().photoSets(tenant->id);
        if (!photo) return fail(photo.error());
        auto customJson = nlohmann::ordered_json::array();
        for (const auto& set : *custom) customJson.push_back(nlohmann::ordered_json(toJson(set)));
        auto photoJson = nlohmann::ordered_json::array();
        for (const auto& set : *photo) photoJson.push_back(nlohmann::ordered_json(toJson(set)));
        print({{"customSets", customJson}, {"photoSets", photoJson}});
        return 0;
    }
    if (poolList->parsed() || poolDelete->parsed()) {
        if (poolDelete->parsed()) {
            auto removed = storage.content().deleteTemplate(setId);
            if (!removed) return fail(removed.error());
            if (!*removed) return fail(Error::notFound("ID: no template " + setId));
            return 0;
        }
        auto templates = storage.content().templates();
        if (!templates) return fail(templates.error());
        auto list = nlohmann::ordered_json::array();
        for (const auto& setTemplate : *templates) list.push_back(nlohmann::ordered_json(toJson(setTemplate)));
        print({{"templates", list}});
        return 0;
    }
    if (keyCreate->parsed()) {
        if (keyName.empty() || keyName.size() > 64) return fail(Error::invalidArgument("NAME: 1 to 64 characters"));
        std::string key = randomSecret();
        if (auto status = storage.operatorKeys().addOperatorKey({keyName, SecretHasher::hash(key)}); !status) return fail(status.error());
        print({{"name", keyName}, {"key", key}});
        return 0;
    }
    if (keyList->parsed() || keyDelete->parsed()) {
        if (keyDelete->parsed()) {
            auto removed = storage.operatorKeys().removeOperatorKey(keyName);
            if (!removed) return fail(removed.error());
            if (!*removed) return fail(Error::notFound("NAME: no operator key " + keyName));
            return 0;
        }
        auto keys = storage.operatorKeys().operatorKeys();
        if (!keys) return fail(keys.error());
        auto names = nlohmann::ordered_json::array();
        for (const auto& key : *keys) names.push_back(key.name);
        print({{"keys", names}});
        return 0;
    }
    if (demoSetup->parsed()) {
        auto result = setupDemo(storage, *context->imports, dataDir, assetsDir + "/content-pool/fashion.json");
        if (!result) return fail(result.error());
        print({{"apiId", result->apiId}, {"firstSku", result->firstSku},
               {"import", {{"rowsRead", result->report.rowsRead}, {"inserted", result->report.counts.inserted},
                           {"updated", result->report.counts.updated}, {"unchanged", result->report.counts.unchanged},
                           {"rejected", result->report.rejected}, {"markedDeleted", result->report.counts.markedDeleted}}}});
        return 0;
    }
    return 2;
}

}  // namespace svc
