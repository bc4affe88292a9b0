#include "cli/FeedCommands.hpp"

#include <iostream>

#include "cli/CliOutput.hpp"
#include "cli/DatabaseUrlOption.hpp"
#include "cli/DataDirContext.hpp"
#include "feed/ImportJson.hpp"

namespace svc {
namespace {

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

FeedCommands::FeedCommands(CLI::App& app) {
    auto* feed = app.add_subcommand("feed", "Product feeds");
    feed->require_subcommand(1);
    auto addFeedOptions = [&](CLI::App* command) {
        command->add_option("--data-dir", dataDir_, "Data directory")->required();
        DatabaseUrlOption::addTo(*command, databaseUrl_);
        command->add_option("--api-id", apiId_, "The tenant's API ID")->required();
        command->add_flag("--delta", options_.delta, "Delta feed: only the listed products change");
        command->add_option("--identifier", options_.identifier, "Column that identifies a record")->capture_default_str();
        command->add_option("--delimiter", delimiter_, "Column separator (one character)")->capture_default_str();
        command->add_option("FILE", file_, "CSV feed file")->required();
    };
    import_ = feed->add_subcommand("import", "Import a CSV feed file now; prints the history entry as JSON. Exit code 0 applied, 1 failed, 3 held");
    addFeedOptions(import_);
    import_->add_flag("--force", force_, "Apply a full feed even if it would delete more than the tenant's max delete share");
    import_->add_option("--feed", feedName_, "Which of the tenant's feeds this is, e.g. default or stock")->capture_default_str();
    validate_ = feed->add_subcommand("validate", "Dry run: report row errors and what importing FILE would change, without changing anything");
    addFeedOptions(validate_);
    history_ = feed->add_subcommand("history", "The tenant's imports, newest first");
    history_->add_option("--data-dir", dataDir_, "Data directory")->required();
    DatabaseUrlOption::addTo(*history_, databaseUrl_);
    history_->add_option("--api-id", apiId_, "The tenant's API ID")->required();
    history_->add_option("--limit", historyLimit_, "How many")->check(CLI::Range(1, 1000))->capture_default_str();
    history_->add_option("--feed", historyFeed_, "Only this feed's imports");
    auto addImportIdOptions = [&](CLI::App* command) {
        command->add_option("--data-dir", dataDir_, "Data directory")->required();
        DatabaseUrlOption::addTo(*command, databaseUrl_);
        command->add_option("--api-id", apiId_, "The tenant's API ID")->required();
        command->add_option("--import-id", importId_, "The import's id (see `feed history`)")->required()->check(CLI::PositiveNumber);
    };
    show_ = feed->add_subcommand("show", "One import with its row errors");
    addImportIdOptions(show_);
    confirm_ = feed->add_subcommand("confirm", "Apply a held import");
    addImportIdOptions(confirm_);
    discard_ = feed->add_subcommand("discard", "Drop a held import without applying it");
    addImportIdOptions(discard_);
    sources_ = std::make_unique<FeedSourceCommands>(*feed);
}

bool FeedCommands::parsed() const {
    for (auto* command : {import_, validate_, history_, show_, confirm_, discard_}) {
        if (command->parsed()) return true;
    }
    return sources_->parsed();
}

int FeedCommands::run() {
    if (sources_->parsed()) return sources_->run();
    auto context = DataDirContext::open(dataDir_, databaseUrl_);
    if (!context) return CliOutput::fail(context.error());
    if (import_->parsed() || validate_->parsed()) return importOrValidate(*context);
    if (history_->parsed()) return history(*context);
    return oneImport(*context);
}

int FeedCommands::importOrValidate(DataDirContext& context) {
    auto delimiter = FeedImportOptions::parseDelimiter(delimiter_, "--delimiter");
    if (!delimiter) return CliOutput::fail(delimiter.error());
    options_.delimiter = *delimiter;
    options_.feed = feedName_;
    if (auto errors = options_.validate(FeedImportFieldNames::cli()); !errors.empty()) return CliOutput::fail(errors.front());
    auto tenant = context.tenant(apiId_);
    if (!tenant) return CliOutput::fail(tenant.error());
    if (validate_->parsed()) {
        auto outcome = context.imports->dryRunFile(*tenant, file_, options_);
        if (!outcome) return CliOutput::fail(outcome.error());
        CliOutput::print(dryRunJson(outcome->report, options_.delta, exceedsDeleteShare(outcome->report, options_.delta, tenant->maxDeleteShare)));
        return 0;
    }
    auto outcome = context.imports->importFile(*tenant, file_, options_, "cli", force_, feedName_);
    if (!outcome) return CliOutput::fail(outcome.error());
    CliOutput::print(importRecordJson(outcome->record, true));
    return importExitCode(outcome->record);
}

int FeedCommands::history(DataDirContext& context) {
    auto tenant = context.tenant(apiId_);
    if (!tenant) return CliOutput::fail(tenant.error());
    if (!historyFeed_.empty()) {
        if (auto valid = validateFeedName(historyFeed_, "--feed"); !valid) return CliOutput::fail(valid.error());
    }
    auto records = context.storage->imports().list(tenant->id, historyFeed_, historyLimit_);
    if (!records) return CliOutput::fail(records.error());
    auto list = nlohmann::ordered_json::array();
    for (const auto& record : *records) list.push_back(importRecordJson(record, false));
    CliOutput::print({{"imports", list}});
    return 0;
}

// show, confirm or discard: one import by its id.
int FeedCommands::oneImport(DataDirContext& context) {
    auto tenant = context.tenant(apiId_);
    if (!tenant) return CliOutput::fail(tenant.error());
    if (confirm_->parsed()) {
        auto outcome = context.imports->confirm(*tenant, importId_);
        if (!outcome) return CliOutput::fail(outcome.error());
        CliOutput::print(importRecordJson(outcome->record, true));
        return importExitCode(outcome->record);
    }
    if (discard_->parsed()) {
        auto record = context.imports->discard(*tenant, importId_);
        if (!record) return CliOutput::fail(record.error());
        CliOutput::print(importRecordJson(*record, false));
        return 0;
    }
    auto record = context.storage->imports().find(tenant->id, importId_);
    if (!record) return CliOutput::fail(record.error());
    if (!*record) return CliOutput::fail(Error::notFound("--import-id: import " + std::to_string(importId_) + " does not exist"));
    CliOutput::print(importRecordJson(**record, true));
    return 0;
}

}  // namespace svc
