#include "cli/TenantCommands.hpp"

#include "cli/CliOutput.hpp"
#include "cli/DataDirContext.hpp"
#include "tenant/TenantService.hpp"
#include "tracking/Commission.hpp"

namespace svc {

TenantCommands::TenantCommands(CLI::App& app) {
    auto* tenant = app.add_subcommand("tenant", "Manage tenants (shops)");
    tenant->require_subcommand(1);
    create_ = tenant->add_subcommand("create", "Create a tenant; prints its API ID, API secret (shown once) and feed ID");
    create_->add_option("--data-dir", dataDir_, "Data directory")->required();
    create_->add_option("--name", name_, "Shop name")->required();
    configure_ = tenant->add_subcommand("configure", "Change a tenant's settings (at least one)");
    configure_->add_option("--data-dir", dataDir_, "Data directory")->required();
    configure_->add_option("--api-id", apiId_, "The tenant's API ID")->required();
    auto* shareOption = configure_->add_option(
        "--max-delete-share", maxDeleteShare_, "A full feed that would delete more than this share of the catalog (0 to 1) is held for confirmation");
    shareOption->check(CLI::Range(0.0, 1.0));
    // The currencies of the GraphQL API's CurrencyCode enum (docs/api/schema.graphql).
    auto* currencyOption = configure_->add_option("--currency", currency_, "The currency of the shop's prices: EUR, PLN or USD");
    currencyOption->check(CLI::IsMember({"EUR", "PLN", "USD"}));
    // The commission contract (docs/adr/0021).
    auto* windowOption = configure_->add_option("--attribution-window-days", windowDays_,
                                                "Days an interaction earns the orders after it (1 to 365; default 30)");
    windowOption->check(CLI::Range(int64_t{1}, int64_t{365}));
    auto* rateOption = configure_->add_option("--commission-rate", commissionRate_, "The commission rate, e.g. 5% or 7.25% (default 0%)");
    auto* widgetRateOption = configure_->add_option(
        "--commission-rate-for", widgetRates_, "A rate for one widget type, e.g. SET=7.5% (repeatable; replaces all earlier ones)");
    configure_->callback([shareOption, currencyOption, windowOption, rateOption, widgetRateOption] {
        if (shareOption->count() + currencyOption->count() + windowOption->count() + rateOption->count() + widgetRateOption->count() == 0) {
            throw CLI::ValidationError("tenant configure",
                                       "give at least one of --max-delete-share, --currency, --attribution-window-days, --commission-rate, "
                                       "--commission-rate-for");
        }
    });
    widgets_.addTo(*tenant, dataDir_);
}

bool TenantCommands::parsed() const { return create_->parsed() || configure_->parsed() || widgets_.parsed(); }

int TenantCommands::run() {
    if (create_->parsed()) return create();
    if (configure_->parsed()) return configure();
    auto context = DataDirContext::open(dataDir_);
    if (!context) return CliOutput::fail(context.error());
    return widgets_.run(*context->storage, dataDir_);
}

int TenantCommands::create() {
    auto context = DataDirContext::open(dataDir_);
    if (!context) return CliOutput::fail(context.error());
    auto created = TenantService(context->storage->tenants()).create(name_);
    if (!created) return CliOutput::fail(created.error());
    CliOutput::print({{"apiId", created->tenant.apiId}, {"apiSecret", created->apiSecret}, {"feedId", created->tenant.feedId}});
    return 0;
}

int TenantCommands::configure() {
    auto context = DataDirContext::open(dataDir_);
    if (!context) return CliOutput::fail(context.error());
    auto& storage = *context->storage;
    auto tenant = context->tenant(apiId_);
    if (!tenant) return CliOutput::fail(tenant.error());
    if (maxDeleteShare_) {
        if (auto status = storage.tenants().setMaxDeleteShare(tenant->id, *maxDeleteShare_); !status) return CliOutput::fail(status.error());
        tenant->maxDeleteShare = *maxDeleteShare_;
    }
    if (currency_) {
        if (auto status = storage.tenants().setCurrency(tenant->id, *currency_); !status) return CliOutput::fail(status.error());
        tenant->currency = *currency_;
    }
    if (windowDays_ || commissionRate_ || !widgetRates_.empty()) {
        auto rates = CommissionRates::fromText(tenant->commissionRates);
        if (!rates) return CliOutput::fail(rates.error());
        if (commissionRate_) {
            auto rate = parseRate(*commissionRate_, "--commission-rate");
            if (!rate) return CliOutput::fail(rate.error());
            rates->basisPoints = *rate;
        }
        if (!widgetRates_.empty()) {
            rates->byWidget.clear();
            for (const auto& text : widgetRates_) {
                size_t equals = text.find('=');
                auto widget = parseWidgetType(text.substr(0, equals == std::string::npos ? 0 : equals));
                if (!widget || *widget == WidgetType::SetCompose) {
                    return CliOutput::fail(Error::invalidArgument("--commission-rate-for: '" + text +
                                                                  "' is not WIDGET=rate with WIDGET one of SET, SIMILAR, SET-Custom"));
                }
                auto rate = parseRate(text.substr(equals + 1), "--commission-rate-for");
                if (!rate) return CliOutput::fail(rate.error());
                rates->byWidget[*widget] = *rate;
            }
        }
        int64_t window = windowDays_.value_or(tenant->attributionWindowDays);
        if (auto status = storage.tenants().setCommission(tenant->id, window, rates->toText()); !status) return CliOutput::fail(status.error());
        tenant->attributionWindowDays = window;
        tenant->commissionRates = rates->toText();
    }
    CliOutput::print({{"apiId", tenant->apiId},
                      {"maxDeleteShare", tenant->maxDeleteShare},
                      {"currency", tenant->currency},
                      {"attributionWindowDays", tenant->attributionWindowDays},
                      {"commissionRates", tenant->commissionRates}});
    return 0;
}

}  // namespace svc
