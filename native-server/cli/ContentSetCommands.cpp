#include "cli/ContentSetCommands.hpp"

#include <fstream>
#include <sstream>

#include "cli/CliOutput.hpp"
#include "cli/DatabaseUrlOption.hpp"
#include "cli/DataDirContext.hpp"
#include "sets/SetJson.hpp"

namespace svc {

ContentSetCommands::ContentSetCommands(CLI::App& app) {
    auto* sets = app.add_subcommand("sets", "A tenant's custom sets and photo sets");
    sets->require_subcommand(1);
    setsImport_ = sets->add_subcommand("import", "Create or replace the sets of a JSON file ({\"customSets\": [...], \"photoSets\": [...]}); all or nothing");
    setsImport_->add_option("FILE", file_, "JSON file")->required();
    setsList_ = sets->add_subcommand("list", "The tenant's sets as JSON (the import format)");
    setsDelete_ = sets->add_subcommand("delete", "Delete one set");
    setsDelete_->add_option("--kind", kind_, "custom or photo")->check(CLI::IsMember({"custom", "photo"}));
    setsDelete_->add_option("ID", id_, "The set's id")->required();
    for (auto* command : {setsImport_, setsList_, setsDelete_}) {
        command->add_option("--data-dir", dataDir_, "Data directory")->required();
        DatabaseUrlOption::addTo(*command, databaseUrl_);
        command->add_option("--api-id", apiId_, "The tenant's API ID")->required();
    }
    auto* pool = app.add_subcommand("content-pool", "The operator's set templates, shared by every tenant");
    pool->require_subcommand(1);
    poolImport_ = pool->add_subcommand("import", "Create or replace the templates of a JSON file ({\"templates\": [...]}); all or nothing");
    poolImport_->add_option("FILE", file_, "JSON file")->required();
    poolList_ = pool->add_subcommand("list", "The templates as JSON (the import format)");
    poolDelete_ = pool->add_subcommand("delete", "Delete one template");
    poolDelete_->add_option("ID", id_, "The template's id")->required();
    for (auto* command : {poolImport_, poolList_, poolDelete_}) {
        command->add_option("--data-dir", dataDir_, "Data directory")->required();
        DatabaseUrlOption::addTo(*command, databaseUrl_);
    }
}

bool ContentSetCommands::parsed() const {
    for (auto* command : {setsImport_, setsList_, setsDelete_, poolImport_, poolList_, poolDelete_}) {
        if (command->parsed()) return true;
    }
    return false;
}

int ContentSetCommands::run() {
    auto context = DataDirContext::open(dataDir_, databaseUrl_);
    if (!context) return CliOutput::fail(context.error());
    if (setsImport_->parsed() || poolImport_->parsed()) return importFile(*context);
    if (setsList_->parsed() || setsDelete_->parsed()) return tenantSets(*context);
    return templates(*context);
}

int ContentSetCommands::importFile(DataDirContext& context) {
    std::ifstream in(file_, std::ios::binary);
    if (!in) return CliOutput::fail(Error::notFound("FILE: cannot read " + file_));
    std::stringstream text;
    text << in.rdbuf();
    auto file = setFileFromJson(text.str());
    if (!file) return CliOutput::fail(Error::invalidArgument(file_ + ": " + file.error().message));
    std::optional<int64_t> tenantId;
    if (setsImport_->parsed()) {
        auto tenant = context.tenant(apiId_);
        if (!tenant) return CliOutput::fail(tenant.error());
        tenantId = tenant->id;
    }
    if (auto status = context.storage->content().importFile(tenantId, *file); !status) return CliOutput::fail(status.error());
    CliOutput::print({{"templates", file->templates.size()}, {"customSets", file->customSets.size()}, {"photoSets", file->photoSets.size()}});
    return 0;
}

int ContentSetCommands::tenantSets(DataDirContext& context) {
    auto& content = context.storage->content();
    auto tenant = context.tenant(apiId_);
    if (!tenant) return CliOutput::fail(tenant.error());
    if (setsDelete_->parsed()) {
        auto removed = content.deleteSet(tenant->id, kind_ == "photo" ? SetKind::Photo : SetKind::Custom, id_);
        if (!removed) return CliOutput::fail(removed.error());
        if (!*removed) return CliOutput::fail(Error::notFound("ID: no " + kind_ + " set " + id_));
        return 0;
    }
    auto custom = content.customSets(tenant->id);
    if (!custom) return CliOutput::fail(custom.error());
    auto photo = content.photoSets(tenant->id);
    if (!photo) return CliOutput::fail(photo.error());
    auto customJson = nlohmann::ordered_json::array();
    for (const auto& set : *custom) customJson.push_back(nlohmann::ordered_json(toJson(set)));
    auto photoJson = nlohmann::ordered_json::array();
    for (const auto& set : *photo) photoJson.push_back(nlohmann::ordered_json(toJson(set)));
    CliOutput::print({{"customSets", customJson}, {"photoSets", photoJson}});
    return 0;
}

int ContentSetCommands::templates(DataDirContext& context) {
    auto& content = context.storage->content();
    if (poolDelete_->parsed()) {
        auto removed = content.deleteTemplate(id_);
        if (!removed) return CliOutput::fail(removed.error());
        if (!*removed) return CliOutput::fail(Error::notFound("ID: no template " + id_));
        return 0;
    }
    auto templates = content.templates();
    if (!templates) return CliOutput::fail(templates.error());
    auto list = nlohmann::ordered_json::array();
    for (const auto& setTemplate : *templates) list.push_back(nlohmann::ordered_json(toJson(setTemplate)));
    CliOutput::print({{"templates", list}});
    return 0;
}

}  // namespace svc
