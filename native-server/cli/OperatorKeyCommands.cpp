#include "cli/OperatorKeyCommands.hpp"

#include "cli/CliOutput.hpp"
#include "cli/DatabaseUrlOption.hpp"
#include "cli/DataDirContext.hpp"
#include "tenant/SecretHasher.hpp"

namespace svc {

OperatorKeyCommands::OperatorKeyCommands(CLI::App& app) {
    auto* keys = app.add_subcommand("operator-key", "Keys for the operator's HTTP endpoints (Authorization: Bearer <key>)");
    keys->require_subcommand(1);
    create_ = keys->add_subcommand("create", "Create a key; prints it once (only its hash is stored)");
    create_->add_option("NAME", name_, "Who or what uses the key")->required();
    list_ = keys->add_subcommand("list", "The keys' names");
    delete_ = keys->add_subcommand("delete", "Revoke a key");
    delete_->add_option("NAME", name_, "The key's name")->required();
    for (auto* command : {create_, list_, delete_}) {
        command->add_option("--data-dir", dataDir_, "Data directory")->required();
        DatabaseUrlOption::addTo(*command, databaseUrl_);
    }
}

bool OperatorKeyCommands::parsed() const { return create_->parsed() || list_->parsed() || delete_->parsed(); }

int OperatorKeyCommands::run() {
    auto context = DataDirContext::open(dataDir_, databaseUrl_);
    if (!context) return CliOutput::fail(context.error());
    auto& keys = context->storage->operatorKeys();
    if (create_->parsed()) {
        if (name_.empty() || name_.size() > 64) return CliOutput::fail(Error::invalidArgument("NAME: 1 to 64 characters"));
        std::string key = randomSecret();
        if (auto status = keys.addOperatorKey({name_, SecretHasher::hash(key)}); !status) return CliOutput::fail(status.error());
        CliOutput::print({{"name", name_}, {"key", key}});
        return 0;
    }
    if (delete_->parsed()) {
        auto removed = keys.removeOperatorKey(name_);
        if (!removed) return CliOutput::fail(removed.error());
        if (!*removed) return CliOutput::fail(Error::notFound("NAME: no operator key " + name_));
        return 0;
    }
    auto names = nlohmann::ordered_json::array();
    auto all = keys.operatorKeys();
    if (!all) return CliOutput::fail(all.error());
    for (const auto& key : *all) names.push_back(key.name);
    CliOutput::print({{"keys", names}});
    return 0;
}

}  // namespace svc
