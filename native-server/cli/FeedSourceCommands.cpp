#include "cli/FeedSourceCommands.hpp"

#include <sodium.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/DatabaseUrlOption.hpp"
#include "app/SystemClock.hpp"
#include "feed/ImportJson.hpp"
#include "feed/PullRuntime.hpp"
#include "feed/PullSourceRules.hpp"

namespace svc {
namespace {

int fail(const Error& error) {
    std::cerr << "svc-server: error: " << error.message << "\n";
    return 1;
}

void print(const nlohmann::ordered_json& json) { std::cout << json.dump(2) << std::endl; }

// An SSH private key file as text, checked only for its form (libssh2 reads it at pull time). Names the option.
Result<std::string> readPrivateKey(const std::string& path, const std::string& option) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return Error::invalidArgument(option + ": cannot read " + path);
    std::stringstream text;
    text << file.rdbuf();
    std::string key = text.str();
    if (auto valid = PullSourceRules::checkPrivateKey(key, option, path); !valid) {
        sodium_memzero(key.data(), key.size());
        return valid.error();
    }
    return key;
}

// What a listing shows of a source: never the credentials, only whether there are any.
nlohmann::ordered_json sourceJson(const PullSource& source) {
    return {{"feed", source.feed},
            {"url", redactPullUrl(source.url)},  // query values redacted; the query is sealed
            {"kind", source.kind},  // "plugin": a registered shop plugin (docs/adr/0036)
            {"every", formatPullInterval(source.intervalSeconds)},
            {"delta", source.delta},
            {"identifier", source.identifier},
            {"delimiter", std::string(1, source.delimiter)},
            {"credentials", source.sealedCredentials.empty() ? "not set" : "set"},
            {"nextRunAt", source.nextRunAt},
            {"lastRunAt", source.lastRunAt},
            {"lastResult", redactUrlsIn(source.lastResult)}};
}

struct Opened {
    std::unique_ptr<Storage> storage;
    std::optional<ServerKeys> keys;
    std::unique_ptr<PullRuntime> runtime;
    Tenant tenant;
};

Result<Opened> openFor(const std::string& dataDir, const std::string& databaseUrl, const std::string& apiId, const std::vector<std::string>& allowList) {
    Opened opened;
    auto storage = Storage::open(DatabaseUrlOption::storageLocation(dataDir, databaseUrl), systemClock());
    if (!storage) return storage.error();
    opened.storage = std::move(*storage);
    auto keys = ServerKeys::loadOrCreate(dataDir);
    if (!keys) return keys.error();
    opened.keys = *keys;
    auto runtime = PullRuntime::open(dataDir, *opened.storage, *opened.keys, allowList);
    if (!runtime) return runtime.error();
    opened.runtime = std::move(*runtime);
    auto tenant = opened.storage->tenants().findByApiId(apiId);
    if (!tenant) return tenant.error();
    if (!*tenant) return Error::notFound("--api-id: no tenant with API ID " + apiId);
    opened.tenant = **tenant;
    return opened;
}

}  // namespace

FeedSourceCommands::FeedSourceCommands(CLI::App& feedCommand) {
    auto* source = feedCommand.add_subcommand("source", "Feeds the service pulls from the shop's server on a schedule");
    source->require_subcommand(1);
    add_ = source->add_subcommand("add", "Pull a feed from a URL on a schedule; prints the source as JSON");
    add_->add_option("--url", url_,
                     "http(s):// URL of the CSV file (sent as text/csv, optionally gzip-encoded), ftp:// or sftp:// URL of a .csv or .csv.gz "
                     "file, or s3://bucket/key[?region=R][&endpoint=http(s)://host:port] of an object stored as text/csv")
        ->required();
    add_->add_option("--every", every_,
                     "How often: 15m, 6h, 1d, ... (default 1d for full feeds, 1h for delta feeds; at least 1h, or 15m for delta feeds)");
    add_->add_flag("--delta", delta_, "Delta feed (e.g. stock and price): only the listed products change");
    add_->add_option("--identifier", identifier_, "Column that identifies a record")->capture_default_str();
    add_->add_option("--delimiter", delimiter_, "Column separator (one character)")->capture_default_str();
    add_->add_option("--username", username_, "User for basic authentication or the (S)FTP login (or the S3 access key id)");
    add_->add_option("--password-env", passwordEnv_,
                     "Name of the environment variable holding the password (or S3 secret access key); never given on the command line");
    add_->add_option("--private-key-file", privateKeyFile_,
                     "sftp:// only: an ed25519 or ECDSA private key without passphrase to log in with (sealed; the file may be removed after)");
    add_->add_option("--host-key", hostKey_,
                     "sftp:// only, required: the server's host key fingerprint, SHA256:... as `ssh-keyscan HOST | ssh-keygen -lf -` prints it");
    list_ = source->add_subcommand("list", "The tenant's pull sources as JSON (credentials shown as set or not set)");
    remove_ = source->add_subcommand("remove", "Stop pulling a feed");
    run_ = source->add_subcommand("run", "Pull a feed now; prints the history entry as JSON. Exit code 0 applied or unchanged, 1 failed, 3 held");
    for (auto* command : {add_, list_, remove_, run_}) {
        command->add_option("--data-dir", dataDir_, "Data directory")->required();
        DatabaseUrlOption::addTo(*command, databaseUrl_);
        command->add_option("--api-id", apiId_, "The tenant's API ID")->required();
        if (command != list_) command->add_option("--feed", feed_, "Which of the tenant's feeds, e.g. default or stock")->capture_default_str();
    }
    run_->add_option("--outbound-allow", allowList_,
                     "HOST[:PORTS] or NETWORK[:PORTS] the request-forgery guard lets through although it is private or loopback "
                     "(repeatable; PORTS: 8080, 8000-8099 or *; without PORTS only 80 and 443; as serve --outbound-allow)");
}

bool FeedSourceCommands::parsed() const { return add_->parsed() || list_->parsed() || remove_->parsed() || run_->parsed(); }

int FeedSourceCommands::run() {
    if (add_->parsed()) return add();
    if (list_->parsed()) return list();
    if (remove_->parsed()) return remove();
    return pullNow();
}

int FeedSourceCommands::add() {
    // The same rules as the operator API's (feed/PullSourceRules); the CLI reports the first problem.
    PullSourceRequest request;
    request.feed = feed_;
    request.url = url_;
    request.every = every_;
    request.delta = delta_;
    request.identifier = identifier_;
    request.delimiter = delimiter_;
    request.username = username_;
    request.hasPassword = !passwordEnv_.empty();
    request.hasPrivateKey = !privateKeyFile_.empty();
    request.hostKey = hostKey_;
    auto checked = PullSourceRules::check(request, PullSourceFieldNames::cli());
    if (!checked.errors.empty()) return fail(checked.errors.front());
    int64_t interval = checked.intervalSeconds;
    Credentials credentials;
    credentials.hostKey = hostKey_;
    if (!privateKeyFile_.empty()) {
        auto key = readPrivateKey(privateKeyFile_, "--private-key-file");
        if (!key) return fail(key.error());
        credentials.privateKey = std::move(*key);
    }
    if (!passwordEnv_.empty()) {
        const char* value = std::getenv(passwordEnv_.c_str());
        if (!value) return fail(Error::invalidArgument("--password-env: the environment variable " + passwordEnv_ + " is not set"));
        credentials.password = value;
    }
    credentials.username = username_;

    auto opened = openFor(dataDir_, databaseUrl_, apiId_, {});
    if (!opened) return fail(opened.error());
    PullSource source;
    source.tenantId = opened->tenant.id;
    source.feed = feed_;
    // A token in the query is a credential: sealed with the others, shown redacted (docs/adr/0061).
    source.url = redactPullUrl(url_);
    credentials.urlQuery = pullUrlQuery(url_);
    source.intervalSeconds = interval;
    source.delta = delta_;
    source.identifier = identifier_;
    source.delimiter = delimiter_[0];
    if (!credentials.empty()) {
        source.sealedCredentials = opened->runtime->cipher().seal(credentials, FeedPuller::credentialOwner(source.tenantId, source.feed));
    }
    sodium_memzero(credentials.password.data(), credentials.password.size());
    sodium_memzero(credentials.privateKey.data(), credentials.privateKey.size());
    source.createdAt = opened->storage->clock().nowSeconds();
    source.nextRunAt = source.createdAt;  // the first pull right away
    auto stored = opened->runtime->sources().add(source);
    if (!stored) return fail(stored.error());
    print(sourceJson(*stored));
    return 0;
}

int FeedSourceCommands::list() {
    auto opened = openFor(dataDir_, databaseUrl_, apiId_, {});
    if (!opened) return fail(opened.error());
    auto sources = opened->runtime->sources().list(opened->tenant.id);
    if (!sources) return fail(sources.error());
    auto listed = nlohmann::ordered_json::array();
    for (const auto& source : *sources) listed.push_back(sourceJson(source));
    print({{"sources", listed}});
    return 0;
}

int FeedSourceCommands::remove() {
    if (auto valid = validateFeedName(feed_, "--feed"); !valid) return fail(valid.error());
    auto opened = openFor(dataDir_, databaseUrl_, apiId_, {});
    if (!opened) return fail(opened.error());
    auto removed = opened->runtime->sources().remove(opened->tenant.id, feed_);
    if (!removed) return fail(removed.error());
    if (!*removed) return fail(Error::notFound("--feed: the tenant has no pull source for feed '" + feed_ + "'"));
    return 0;
}

int FeedSourceCommands::pullNow() {
    if (auto valid = validateFeedName(feed_, "--feed"); !valid) return fail(valid.error());
    auto opened = openFor(dataDir_, databaseUrl_, apiId_, allowList_);
    if (!opened) return fail(opened.error());
    auto found = opened->runtime->sources().find(opened->tenant.id, feed_);
    if (!found) return fail(found.error());
    if (!*found) return fail(Error::notFound("--feed: the tenant has no pull source for feed '" + feed_ + "'"));
    auto outcome = opened->runtime->puller().pull(**found);
    if (!outcome) return fail(outcome.error());
    PullSource source = outcome->source;
    int64_t now = opened->storage->clock().nowSeconds();
    source.lastRunAt = now;
    source.nextRunAt = PullScheduler::nextRunAfter(source, outcome->result, now);
    if (auto stored = opened->runtime->sources().finish(source); !stored) return fail(stored.error());
    if (outcome->result == PullResult::Unchanged) {
        print({{"feed", source.feed}, {"result", "unchanged"}});
        return 0;
    }
    print(importRecordJson(outcome->record, true));
    if (outcome->record.status == ImportStatus::Failed) {
        std::cerr << "svc-server: import " << outcome->record.id << " failed: " << redactUrlsIn(outcome->record.message) << "\n";
        return 1;
    }
    return outcome->record.status == ImportStatus::Held ? 3 : 0;
}

}  // namespace svc
