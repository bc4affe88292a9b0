#include "cli/ContentLearningCli.hpp"

#include <cstdlib>
#include <iostream>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "text/BoundedJson.hpp"

namespace svc {

ContentLearningCli::ContentLearningCli(CLI::App& app) {
    auto* command = app.add_subcommand("content", "A tenant's recommendation content");
    command->require_subcommand(1);
    status_ = command->add_subcommand("status",
                                      "Orders the tenant's recommendations learned from, and when the newest arrived (asks the running "
                                      "server; the operator key from SVC_OPERATOR_KEY)");
    status_->add_option("--api-id", apiId_, "The tenant's API ID")->required();
    status_->add_option("--server", server_, "The running server's base URL, e.g. http://127.0.0.1:8080")->required();
    status_->add_flag("--learn", learn_, "Learn every purchase stored so far first, and answer when done");
}

bool ContentLearningCli::parsed() const { return status_ && status_->parsed(); }

int ContentLearningCli::run() {
    auto fail = [](const std::string& message) {
        std::cerr << "svc-server: error: " << message << "\n";
        return 1;
    };
    const char* key = std::getenv("SVC_OPERATOR_KEY");
    if (!key || !*key) return fail("SVC_OPERATOR_KEY: give an operator key (svc-server operator-key create)");
    httplib::Client client(server_);
    if (!client.is_valid()) return fail("--server: " + server_ + " is not an http:// or https:// base URL");
    client.set_read_timeout(600, 0);  // learning a large backlog is one build
    const std::string path = "/operator/api/tenants/" + apiId_ + "/content/learning";
    httplib::Headers headers{{"Authorization", std::string("Bearer ") + key}};
    auto response = learn_ ? client.Post(path, headers, "", "application/json") : client.Get(path, headers);
    if (!response) return fail("--server: " + server_ + " did not answer (" + httplib::to_string(response.error()) + ")");
    auto parsed = BoundedJson::parse(response->body, "the server's answer");
    nlohmann::json body = parsed ? *parsed : nlohmann::json();
    if (response->status != 200) {
        std::string message = body.is_object() && body.contains("error") && body["error"].is_object() && body["error"].contains("message") &&
                                      body["error"]["message"].is_string()
                                  ? body["error"]["message"].get<std::string>()
                                  : "HTTP " + std::to_string(response->status);
        return fail(message);
    }
    if (!body.is_object()) return fail("--server: the answer is not a JSON object");
    std::cout << nlohmann::ordered_json{{"apiId", apiId_}, {"ordersLearned", body["ordersLearned"]}, {"lastOrderLearnedAt", body["lastOrderLearnedAt"]}}
                     .dump(2)
              << std::endl;
    return 0;
}

}  // namespace svc
