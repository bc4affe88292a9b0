#include "cli/Cli.hpp"

#include <CLI/CLI.hpp>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <thread>

#include <nlohmann/json.hpp>

#include "app/DemoSetup.hpp"
#include "feed/FeedFileImport.hpp"
#include "http/ApiServer.hpp"
#include "store/SqliteStorage.hpp"
#include "tenant/TenantService.hpp"

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

nlohmann::json reportJson(const FeedImportReport& report) {
    nlohmann::json errors = nlohmann::json::array();
    for (const auto& error : report.errors) {
        errors.push_back({{"line", error.line}, {"column", error.column}, {"kind", rowErrorKindName(error.kind)},
                          {"message", error.message}});
    }
    return {{"rowsRead", report.rowsRead}, {"inserted", report.counts.inserted}, {"updated", report.counts.updated},
            {"unchanged", report.counts.unchanged}, {"rejected", report.rejected},
            {"markedDeleted", report.counts.markedDeleted}, {"errors", errors}};
}

Result<std::pair<std::string, int>> parseListen(const std::string& listen) {
    size_t colon = listen.rfind(':');
    if (colon == std::string::npos || colon == 0) return Error::invalidArgument("--listen: expected HOST:PORT, got '" + listen + "'");
    std::string host = listen.substr(0, colon);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    std::string portText = listen.substr(colon + 1);
    if (portText.empty() || portText.find_first_not_of("0123456789") != std::string::npos || portText.size() > 5 ||
        std::stoi(portText) > 65535) {
        return Error::invalidArgument("--listen: port '" + portText + "' is not a number from 0 to 65535");
    }
    return std::pair<std::string, int>{host, std::stoi(portText)};
}

int serve(const std::string& dataDir, const std::string& listen, const std::string& assetsDir, int threads) {
    auto address = parseListen(listen);
    if (!address) return fail(address.error());
    auto storage = SqliteStorage::open(dataDir);
    if (!storage) return fail(storage.error());

    // Signals are taken by one thread with sigwait, so shutdown runs as normal code.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    ServerOptions options;
    options.host = address->first;
    options.port = address->second;
    options.dataDir = dataDir;
    options.assetsDir = assetsDir;
    options.threads = threads;
    ApiServer server(options, **storage);
    auto port = server.bind();
    if (!port) return fail(port.error());
    std::cout << "svc-server: listening on http://" << options.host << ":" << *port << std::endl;
    std::thread signalWaiter([&] {
        int received = 0;
        sigwait(&signals, &received);
        std::cout << "svc-server: stopping" << std::endl;
        server.stop();
    });
    server.run();
    // run() also returns when the socket fails; wake the waiter so it can be joined.
    pthread_kill(signalWaiter.native_handle(), SIGTERM);
    signalWaiter.join();
    return 0;
}

}  // namespace

int runCli(int argc, char** argv) {
    CLI::App app{"svc-server: product-recommendation widgets, feeds, GraphQL and tracking for online shops"};
    app.require_subcommand(1);
    std::string dataDir;
    std::string assetsDir = defaultAssetsDir();

    auto* serveCommand = app.add_subcommand("serve", "Serve the HTTP API, the SDK and the demo shop");
    std::string listen = "127.0.0.1:8080";
    int threads = 16;
    serveCommand->add_option("--data-dir", dataDir, "Data directory (SQLite database, demo catalog)")->required();
    serveCommand->add_option("--listen", listen, "Address to listen on, HOST:PORT")->capture_default_str();
    serveCommand->add_option("--assets-dir", assetsDir, "Directory with sdk/, loader/ and web-demo/")->capture_default_str();
    serveCommand->add_option("--threads", threads, "Worker threads")->check(CLI::Range(1, 512))->capture_default_str();

    auto* tenantCommand = app.add_subcommand("tenant", "Manage tenants (shops)");
    tenantCommand->require_subcommand(1);
    auto* tenantCreate = tenantCommand->add_subcommand("create", "Create a tenant; prints its API ID, API secret (shown once) and feed ID");
    std::string tenantName;
    tenantCreate->add_option("--data-dir", dataDir, "Data directory")->required();
    tenantCreate->add_option("--name", tenantName, "Shop name")->required();

    auto* feedCommand = app.add_subcommand("feed", "Product feeds");
    feedCommand->require_subcommand(1);
    auto* feedImport = feedCommand->add_subcommand("import", "Import a CSV feed file for a tenant; prints the import report as JSON");
    std::string apiId;
    std::string feedFile;
    FeedImportOptions importOptions;
    std::string delimiter = ";";
    feedImport->add_option("--data-dir", dataDir, "Data directory")->required();
    feedImport->add_option("--api-id", apiId, "The tenant's API ID")->required();
    feedImport->add_flag("--delta", importOptions.delta, "Delta feed: only the listed products change");
    feedImport->add_option("--identifier", importOptions.identifier, "Column that identifies a record")->capture_default_str();
    feedImport->add_option("--delimiter", delimiter, "Column separator (one character)")->capture_default_str();
    feedImport->add_option("FILE", feedFile, "CSV feed file")->required();

    auto* demoCommand = app.add_subcommand("demo", "The demo shop");
    demoCommand->require_subcommand(1);
    auto* demoSetup = demoCommand->add_subcommand("setup", "Create the demo tenant, generate the demo catalog and import it");
    demoSetup->add_option("--data-dir", dataDir, "Data directory")->required();

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        return app.exit(error) == 0 ? 0 : 2;
    }

    if (serveCommand->parsed()) return serve(dataDir, listen, assetsDir, threads);

    auto storage = SqliteStorage::open(dataDir);
    if (!storage) return fail(storage.error());

    if (tenantCreate->parsed()) {
        auto created = TenantService((*storage)->tenants()).create(tenantName);
        if (!created) return fail(created.error());
        std::cout << nlohmann::json{{"apiId", created->tenant.apiId}, {"apiSecret", created->apiSecret},
                                    {"feedId", created->tenant.feedId}}.dump(2)
                  << std::endl;
        return 0;
    }
    if (feedImport->parsed()) {
        if (delimiter.size() != 1) return fail(Error::invalidArgument("--delimiter: must be exactly one character"));
        importOptions.delimiter = delimiter[0];
        auto tenant = (*storage)->tenants().findByApiId(apiId);
        if (!tenant) return fail(tenant.error());
        if (!*tenant) return fail(Error::notFound("--api-id: no tenant with API ID " + apiId));
        auto report = importFeedFile((*storage)->catalog(), (*tenant)->id, feedFile, importOptions);
        if (!report) return fail(report.error());
        std::cout << reportJson(*report).dump(2) << std::endl;
        return 0;
    }
    if (demoSetup->parsed()) {
        auto result = setupDemo(**storage, dataDir);
        if (!result) return fail(result.error());
        std::cout << nlohmann::json{{"apiId", result->apiId}, {"firstSku", result->firstSku},
                                    {"import", reportJson(result->report)}}.dump(2)
                  << std::endl;
        return 0;
    }
    return 2;
}

}  // namespace svc
