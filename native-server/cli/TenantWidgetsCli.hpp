#pragma once
// The operator's commands for widget presentation (docs/operations.md):
//   svc-server tenant widgets --api-id ID [--language-rule R] [--default-language L]
//                             [--country CC] [--css-file F | --clear-css]
//   svc-server tenant texts --api-id ID --language L FILE.json | --remove
// Bad input is refused with a message naming the option or text key; nothing changes then.
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "store/Storage.hpp"

namespace svc {

class TenantWidgetsCli {
public:
    // Adds the subcommands to `tenantCommand`; their --data-dir goes to `dataDir`, which
    // the caller opens the storage from.
    void addTo(CLI::App& tenantCommand, std::string& dataDir, std::string& databaseUrl);
    bool parsed() const;
    // Runs the parsed subcommand; the process exit code.
    int run(Storage& storage);

private:
    CLI::App* widgets_ = nullptr;
    CLI::App* texts_ = nullptr;
    CLI::Option* cssFileOption_ = nullptr;
    std::string apiId_;
    std::optional<std::string> languageRule_;
    std::optional<std::string> defaultLanguage_;
    std::optional<std::string> country_;
    std::optional<std::string> consent_;
    std::optional<std::string> cssFile_;
    bool clearCss_ = false;
    std::string language_;
    std::string textsFile_;
    bool remove_ = false;
};

}  // namespace svc
