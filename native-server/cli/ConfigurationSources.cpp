#include "cli/ConfigurationSources.hpp"

#include <cctype>
#include <cstdlib>
#include <memory>

namespace svc {
namespace {

// CLI11 gives a config file precedence over the environment; svc wants the environment to win
// (a systemd drop-in or a container's variables override the packaged file), so the file's
// items whose variable is set are dropped before CLI11 sees them.
class EnvironmentFirstToml : public CLI::ConfigBase {
public:
    std::vector<CLI::ConfigItem> from_config(std::istream& input) const override {
        auto items = CLI::ConfigBase::from_config(input);
        std::vector<CLI::ConfigItem> kept;
        for (auto& item : items) {
            bool isServeOption = item.parents.size() == 1 && item.parents.front() == "serve";
            if (isServeOption && std::getenv(ConfigurationSources::environmentName(item.name).c_str()) != nullptr) continue;
            kept.push_back(std::move(item));
        }
        return kept;
    }
};

}  // namespace

std::string ConfigurationSources::environmentName(const std::string& longName) {
    std::string name = "SVC_";
    for (char c : longName) name += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return name;
}

void ConfigurationSources::enable(CLI::App& app, CLI::App& serve) {
    app.set_config("--config", "", "Read `serve` options from a TOML file's [serve] section (docs/operations.md, Configuration)");
    app.config_formatter(std::make_shared<EnvironmentFirstToml>());
    app.allow_config_extras(CLI::config_extras_mode::error);
    serve.allow_config_extras(CLI::config_extras_mode::error);
    for (CLI::Option* option : serve.get_options()) {
        std::string name = option->get_single_name();
        if (name.empty() || name == "help") continue;
        option->envname(environmentName(name));
    }
}

std::vector<std::string> ConfigurationSources::normalized(int argc, char** argv) {
    std::vector<std::string> arguments(argv, argv + argc);
    size_t serveAt = 0;
    for (size_t i = 1; i < arguments.size(); ++i) {
        if (arguments[i] == "serve") {
            serveAt = i;
            break;
        }
    }
    if (serveAt == 0) return arguments;
    for (size_t i = serveAt + 1; i < arguments.size(); ++i) {
        if (arguments[i] == "--config" && i + 1 < arguments.size()) {
            std::vector<std::string> moved{arguments[i], arguments[i + 1]};
            arguments.erase(arguments.begin() + static_cast<long>(i), arguments.begin() + static_cast<long>(i) + 2);
            arguments.insert(arguments.begin() + static_cast<long>(serveAt), moved.begin(), moved.end());
            break;
        }
        if (arguments[i].rfind("--config=", 0) == 0) {
            std::string moved = arguments[i];
            arguments.erase(arguments.begin() + static_cast<long>(i));
            arguments.insert(arguments.begin() + static_cast<long>(serveAt), moved);
            break;
        }
    }
    return arguments;
}

}  // namespace svc
