#include "cli/ReportCommands.hpp"

#include <iostream>

#include "cli/CliOutput.hpp"
#include "cli/DatabaseUrlOption.hpp"
#include "cli/DataDirContext.hpp"
#include "http/ReportRoutes.hpp"
#include "tracking/CommissionReport.hpp"

namespace svc {

ReportCommands::ReportCommands(CLI::App& app) {
    auto* report = app.add_subcommand("report", "Commission reports (the server books purchases as they arrive)");
    report->require_subcommand(1);
    summary_ = report->add_subcommand("summary", "Totals by widget, touchpoint and test group, as JSON");
    ledger_ = report->add_subcommand("ledger", "Every ledger entry (sales and returns), as CSV");
    for (auto* command : {summary_, ledger_}) {
        command->add_option("--data-dir", dataDir_, "Data directory")->required();
        DatabaseUrlOption::addTo(*command, databaseUrl_);
        command->add_option("--api-id", apiId_, "The tenant's API ID")->required();
        command->add_option("--from", from_, "First day, YYYY-MM-DD (UTC; default 30 days before --to)");
        command->add_option("--to", to_, "Last day, YYYY-MM-DD (UTC; default today)");
    }
}

bool ReportCommands::parsed() const { return summary_->parsed() || ledger_->parsed(); }

int ReportCommands::run() {
    auto context = DataDirContext::open(dataDir_, databaseUrl_);
    if (!context) return CliOutput::fail(context.error());
    auto& storage = *context->storage;
    auto tenant = context->tenant(apiId_);
    if (!tenant) return CliOutput::fail(tenant.error());
    auto period = reportPeriod(from_, to_, storage.clock().nowSeconds());
    if (!period) return CliOutput::fail(period.error());
    // The server books purchases; what it has not booked yet is not in the report.
    auto pending = storage.ledger().pendingPurchases(tenant->id);
    if (!pending) return CliOutput::fail(pending.error());
    if (*pending > 0) {
        std::cerr << "svc-server: " << *pending << " purchases are not booked yet (svc-server serve books them within seconds)" << std::endl;
    }
    auto entries = storage.ledger().entries(tenant->id, period->first, period->second);
    if (!entries) return CliOutput::fail(entries.error());
    if (ledger_->parsed()) {
        std::cout << CommissionReport::ledgerCsv(*entries);
        return 0;
    }
    auto events = storage.ledger().eventCounts(tenant->id, period->first, period->second);
    if (!events) return CliOutput::fail(events.error());
    auto report = CommissionReport::build(period->first, period->second, *events, *entries);
    if (!report) return CliOutput::fail(report.error());
    CliOutput::print(report->toJson());
    return 0;
}

}  // namespace svc
