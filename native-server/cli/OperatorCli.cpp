#include "cli/OperatorCli.hpp"

#include <termios.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/DatabaseUrlOption.hpp"
#include "app/SystemClock.hpp"
#include "operator/OperatorAccounts.hpp"
#include "store/Storage.hpp"

namespace svc {
namespace {

int failWith(const std::string& message) {
    std::cerr << "svc-server: error: " << message << "\n";
    return 1;
}

// One line of standard input; on a terminal without echo, so the password never shows.
std::string readPassword() {
    bool terminal = isatty(STDIN_FILENO);
    termios saved{};
    if (terminal) {
        std::cerr << "Password (at least 12 characters): " << std::flush;
        tcgetattr(STDIN_FILENO, &saved);
        termios quiet = saved;
        quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
    }
    std::string line;
    std::getline(std::cin, line);
    if (terminal) {
        tcsetattr(STDIN_FILENO, TCSANOW, &saved);
        std::cerr << "\n";
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
}

}  // namespace

OperatorCli::OperatorCli(CLI::App& app) {
    auto* command = app.add_subcommand("operator", "Operator accounts of the console (/console/)");
    command->require_subcommand(1);
    create_ = command->add_subcommand("create",
                                      "Create an operator account; the password is read from SVC_OPERATOR_PASSWORD or standard input");
    create_->add_option("--data-dir", dataDir_, "Data directory")->required();
    DatabaseUrlOption::addTo(*create_, databaseUrl_);
    create_->add_option("--email", email_, "The operator's e-mail address, used to sign in")->required();
    password_ = command->add_subcommand(
        "password", "Set a new password of an operator (ends their sessions, clears a lock-out); read like create's");
    password_->add_option("--data-dir", dataDir_, "Data directory")->required();
    DatabaseUrlOption::addTo(*password_, databaseUrl_);
    password_->add_option("--email", email_, "The operator's e-mail address")->required();
}

bool OperatorCli::parsed() const { return (create_ && create_->parsed()) || (password_ && password_->parsed()); }

int OperatorCli::run() {
    auto storage = Storage::open(DatabaseUrlOption::storageLocation(dataDir_, databaseUrl_), systemClock());
    if (!storage) return failWith(storage.error().message);
    if (auto valid = OperatorAccounts::validEmail(email_, "--email"); !valid) return failWith(valid.error().message);
    const char* fromEnvironment = std::getenv("SVC_OPERATOR_PASSWORD");
    std::string password = fromEnvironment ? fromEnvironment : readPassword();
    if (password.empty()) return failWith("password: give it in SVC_OPERATOR_PASSWORD or on standard input");
    if (auto valid = PasswordHasher::validNew(password, "password"); !valid) return failWith(valid.error().message);
    OperatorAccounts accounts((*storage)->operators(), (*storage)->rateLimits(), (*storage)->clock(), PasswordCost::interactive());
    if (password_->parsed()) {
        if (auto reset = accounts.resetPassword(email_, password); !reset) return failWith(reset.error().message);
        std::cout << nlohmann::ordered_json{{"email", std::string(email_)}, {"password", "changed"}, {"sessionsEnded", true}}.dump(2)
                  << std::endl;
        return 0;
    }
    auto created = accounts.createOperator(email_, password);
    if (!created) {
        std::string message = created.error().message;
        if (message.rfind("email:", 0) == 0) message = "--email:" + message.substr(6);
        return failWith(message);
    }
    std::cout << nlohmann::ordered_json{{"email", created->email}, {"console", "/console/"}}.dump(2) << std::endl;
    return 0;
}

}  // namespace svc
