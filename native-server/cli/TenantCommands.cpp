#include "cli/TenantCommands.hpp"

#include "cli/CliOutput.hpp"
#include "cli/DatabaseUrlOption.hpp"
#include "cli/DataDirContext.hpp"
#include "tenant/TenantService.hpp"
#include "tenant/TenantSettingsCommand.hpp"
#include "tracking/Commission.hpp"

namespace svc {

TenantCommands::TenantCommands(CLI::App& app) {
    auto* tenant = app.add_subcommand("tenant", "Manage tenants (shops)");
    tenant->require_subcommand(1);
    create_ = tenant->add_subcommand("create", "Create a tenant; prints its API ID, API secret (shown once) and feed ID");
    create_->add_option("--data-dir", dataDir_, "Data directory")->required();
    DatabaseUrlOption::addTo(*create_, databaseUrl_);
    create_->add_option("--name", name_, "Shop name")->required();
    configure_ = tenant->add_subcommand("configure", "Change a tenant's settings (at least one)");
    configure_->add_option("--data-dir", dataDir_, "Data directory")->required();
    DatabaseUrlOption::addTo(*configure_, databaseUrl_);
    configure_->add_option("--api-id", apiId_, "The tenant's API ID")->required();
    // The rules of every setting are TenantSettingsCommand's (shared with the operator API).
    auto* shareOption = configure_->add_option(
        "--max-delete-share", maxDeleteShare_, "A full feed that would delete more than this share of the catalog (0 to 1) is held for confirmation");
    auto* currencyOption = configure_->add_option("--currency", currency_, "The currency of the shop's prices: EUR, PLN or USD");
    // The commission contract (docs/adr/0021).
    auto* windowOption = configure_->add_option("--attribution-window-days", windowDays_,
                                                "Days an interaction earns the orders after it (1 to 365; default 30)");
    auto* rateOption = configure_->add_option("--commission-rate", commissionRate_, "The commission rate, e.g. 5% or 7.25% (default 0%)");
    auto* widgetRateOption = configure_->add_option(
        "--commission-rate-for", widgetRates_, "A rate for one widget type, e.g. SET=7.5% (repeatable; replaces all earlier ones)");
    // Settings that need no stored tenant are checked while parsing: a wrong one is a wrong command line (exit code 2).
    configure_->callback([this, shareOption, currencyOption, windowOption, rateOption, widgetRateOption] {
        if (shareOption->count() + currencyOption->count() + windowOption->count() + rateOption->count() + widgetRateOption->count() == 0) {
            throw CLI::ValidationError("tenant configure",
                                       "give at least one of --max-delete-share, --currency, --attribution-window-days, --commission-rate, "
                                       "--commission-rate-for");
        }
        TenantSettingsChange change = settingsChange();
        if (auto errors = TenantSettingsCommand::check(change, TenantSettingsFields::cli()); !errors.empty()) {
            throw CLI::ValidationError(errors.front().message);
        }
    });
    widgets_.addTo(*tenant, dataDir_, databaseUrl_);
}

bool TenantCommands::parsed() const { return create_->parsed() || configure_->parsed() || widgets_.parsed(); }

int TenantCommands::run() {
    if (create_->parsed()) return create();
    if (configure_->parsed()) return configure();
    auto context = DataDirContext::open(dataDir_, databaseUrl_);
    if (!context) return CliOutput::fail(context.error());
    return widgets_.run(*context->storage);
}

int TenantCommands::create() {
    auto context = DataDirContext::open(dataDir_, databaseUrl_);
    if (!context) return CliOutput::fail(context.error());
    auto created = TenantService(context->storage->tenants()).create(name_);
    if (!created) return CliOutput::fail(created.error());
    CliOutput::print({{"apiId", created->tenant.apiId}, {"apiSecret", created->apiSecret}, {"feedId", created->tenant.feedId}});
    return 0;
}

TenantSettingsChange TenantCommands::settingsChange() const {
    TenantSettingsChange change;
    change.currency = currency_;
    change.attributionWindowDays = windowDays_;
    change.maxDeleteShare = maxDeleteShare_;
    return change;
}

// The CLI's rates (5%, SET=7.25%) as basis points on top of the tenant's current ones, in
// CommissionRates' text form; TenantSettingsCommand checks what they say.
Result<std::string> TenantCommands::commissionRates(const Tenant& tenant) const {
    auto rates = CommissionRates::fromText(tenant.commissionRates);
    if (!rates) return rates.error();
    if (commissionRate_) {
        auto rate = parseRate(*commissionRate_, "--commission-rate");
        if (!rate) return rate.error();
        rates->basisPoints = *rate;
    }
    if (!widgetRates_.empty()) {
        rates->byWidget.clear();
        for (const auto& text : widgetRates_) {
            size_t equals = text.find('=');
            auto widget = parseWidgetType(text.substr(0, equals == std::string::npos ? 0 : equals));
            if (!widget) {
                return Error::invalidArgument("--commission-rate-for: '" + text + "' is not WIDGET=rate with WIDGET one of SET, SIMILAR, SET-Custom");
            }
            auto rate = parseRate(text.substr(equals + 1), "--commission-rate-for");
            if (!rate) return rate.error();
            rates->byWidget[*widget] = *rate;
        }
    }
    return rates->toText();
}

int TenantCommands::configure() {
    auto context = DataDirContext::open(dataDir_, databaseUrl_);
    if (!context) return CliOutput::fail(context.error());
    auto tenant = context->tenant(apiId_);
    if (!tenant) return CliOutput::fail(tenant.error());
    TenantSettingsChange change = settingsChange();
    if (commissionRate_ || !widgetRates_.empty()) {
        auto rates = commissionRates(*tenant);
        if (!rates) return CliOutput::fail(rates.error());
        change.commissionRates = *rates;
    }
    TenantSettingsCommand command(context->storage->tenants(), &context->storage->widgetSettings(), context->storage->clock());
    TenantSettingsFields fields = TenantSettingsFields::cli();
    fields.commissionRates = "--commission-rate-for";
    auto updated = command.apply(*tenant, change, fields);
    if (!updated) return CliOutput::fail(updated.error());
    CliOutput::print({{"apiId", updated->apiId},
                      {"maxDeleteShare", updated->maxDeleteShare},
                      {"currency", updated->currency},
                      {"attributionWindowDays", updated->attributionWindowDays},
                      {"commissionRates", updated->commissionRates}});
    return 0;
}

}  // namespace svc
