#include "http/OperatorAccountRoutes.hpp"

#include <optional>

#include <nlohmann/json.hpp>

#include "http/RequestContext.hpp"
#include "http/HttpErrors.hpp"
#include "http/HttpJson.hpp"
#include "text/StringUtil.hpp"

namespace svc {
namespace {

using nlohmann::json;

// A string member, "" when missing; nullopt (and the error, naming it) when not a string.
std::optional<std::string> textMember(const json& body, const char* field, std::vector<Error>& errors) {
    if (!body.contains(field)) return std::string();
    auto value = jsonStringMember(body, field);
    if (!value) {
        errors.push_back(value.error());
        return std::nullopt;
    }
    return *value;
}

json operatorJson(const OperatorAccount& account, const std::string& callerEmail) {
    return {{"id", account.id},
            {"email", account.email},
            {"createdAt", account.createdAt},
            {"lastSignInAt", account.lastSignInAt ? json(account.lastSignInAt) : json(nullptr)},
            {"you", toLower(account.email) == toLower(callerEmail)}};
}

}  // namespace

void OperatorAccountRoutes::registerOn(httplib::Server& server) {
    server.Get("/operator/api/operators", [this](const httplib::Request& q, httplib::Response& r) { list(q, r); });
    server.Post("/operator/api/operators", [this](const httplib::Request& q, httplib::Response& r) { add(q, r); });
    server.Delete("/operator/api/operators/([0-9]{1,18})", [this](const httplib::Request& q, httplib::Response& r) { remove(q, r); });
    server.Post("/operator/api/me/password", [this](const httplib::Request& q, httplib::Response& r) { changePassword(q, r); });
}

void OperatorAccountRoutes::list(const httplib::Request& request, httplib::Response& response) {
    auto caller = auth_.authenticate(request, false);
    if (!caller) return sendError(response, caller.error());
    auto accounts = auth_.accounts().listOperators();
    if (!accounts) return sendError(response, accounts.error());
    json items = json::array();
    for (const auto& account : *accounts) items.push_back(operatorJson(account, caller->email));
    sendJson(response, 200, {{"operators", items}}, JsonCaching::NoStore);
}

void OperatorAccountRoutes::add(const httplib::Request& request, httplib::Response& response) {
    auto caller = auth_.authenticate(request, true);
    if (!caller) return sendError(response, caller.error());
    auto body = readJsonBody(request);
    if (!body) return sendError(response, body.error());
    // Both fields checked before anything is written, so the form shows every problem at once.
    std::vector<Error> errors;
    auto emailText = textMember(*body, "email", errors);
    auto passwordText = textMember(*body, "password", errors);
    std::string email(trim(emailText.value_or("")));
    std::string password = passwordText.value_or("");
    if (emailText) {
        if (auto valid = OperatorAccounts::validEmail(email, "email"); !valid) errors.push_back(valid.error());
    }
    if (passwordText) {
        if (password.empty()) errors.push_back(Error::invalidArgument("password: required"));
        else if (auto valid = PasswordHasher::validNew(password, "password"); !valid) errors.push_back(valid.error());
    }
    if (!errors.empty()) return sendFieldErrors(response, errors);
    auto created = auth_.accounts().createOperator(email, password);
    if (!created) {
        Error error = created.error();
        // The store names the CLI's option; the API's field is "email".
        if (error.message.rfind("--email:", 0) == 0) error.message = "email:" + error.message.substr(8);
        return sendFieldErrors(response, {error});
    }
    auto accounts = auth_.accounts().listOperators();
    if (!accounts) return sendError(response, accounts.error());
    for (const auto& account : *accounts) {
        if (account.id == created->id) return sendJson(response, 201, operatorJson(account, caller->email), JsonCaching::NoStore);
    }
    sendJson(response, 201, operatorJson(*created, caller->email), JsonCaching::NoStore);
}

void OperatorAccountRoutes::remove(const httplib::Request& request, httplib::Response& response) {
    auto caller = auth_.authenticate(request, true);
    if (!caller) return sendError(response, caller.error());
    int64_t id = parseInt64(std::string(request.matches[1])).value_or(0);
    if (auto status = auth_.accounts().removeOperator(id, caller->email); !status) return sendFieldErrors(response, {status.error()});
    response.status = 204;
}

void OperatorAccountRoutes::changePassword(const httplib::Request& request, httplib::Response& response) {
    auto caller = auth_.authenticate(request, true);
    if (!caller) return sendError(response, caller.error());
    if (caller->email.empty()) {
        return sendError(response, Error::permissionDenied("an operator key has no password: sign in to the console to change yours"));
    }
    auto body = readJsonBody(request);
    if (!body) return sendError(response, body.error());
    std::vector<Error> errors;
    auto currentText = textMember(*body, "currentPassword", errors);
    auto nextText = textMember(*body, "newPassword", errors);
    std::string current = currentText.value_or("");
    std::string next = nextText.value_or("");
    if (currentText && current.empty()) errors.push_back(Error::invalidArgument("currentPassword: required"));
    if (nextText) {
        if (next.empty()) errors.push_back(Error::invalidArgument("newPassword: required"));
        else if (auto valid = PasswordHasher::validNew(next, "newPassword"); !valid) errors.push_back(valid.error());
    }
    if (!errors.empty()) return sendFieldErrors(response, errors);
    auto changed = auth_.accounts().changePassword(caller->email, current, next, OperatorAuth::sessionToken(request), clientAddress(request));
    // A lock-out (429) and a full hash gate (503) carry their Retry-After, as at sign-in.
    if (!changed) return sendFieldErrors(response, {changed.error()});
    response.status = 204;
}

}  // namespace svc
