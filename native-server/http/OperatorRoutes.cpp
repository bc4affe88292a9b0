#include "http/OperatorRoutes.hpp"

#include <nlohmann/json.hpp>

#include "feed/FeedFreshness.hpp"
#include "feed/ImportJson.hpp"
#include "feed/PullSource.hpp"
#include "fleet/CalendarMonth.hpp"
#include "fleet/FleetListing.hpp"
#include "fleet/FleetQuery.hpp"
#include "fleet/TenantAttention.hpp"
#include "http/HttpErrors.hpp"
#include "http/HttpJson.hpp"
#include "http/RequestContext.hpp"
#include "text/BoundedJson.hpp"
#include "tenant/TenantSettingsCommand.hpp"
#include "text/StringUtil.hpp"
#include "tracking/Commission.hpp"
#include "widget/WidgetTexts.hpp"

namespace svc {
namespace {

using nlohmann::json;

constexpr const char* kApiId = "([A-Za-z0-9-]{1,64})";

// Quarantined purchase lines stay in the ledger's quarantine for good: the fleet view counts
// those of the last 30 days (docs/adr/0066).
constexpr int64_t kQuarantineWindowSeconds = 30 * 86400;

// The console's pages load only their own files: no inline script or style, no other origin;
// frames only from svc itself (the widget preview), and no one may frame the console.
constexpr const char* kConsolePolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

json tenantJson(const Tenant& tenant, const std::string& country) {
    return {{"apiId", tenant.apiId},
            {"name", tenant.name},
            {"feedId", tenant.feedId},
            {"currency", tenant.currency},
            {"locale", tenant.locale},
            {"country", country},
            {"commissionRates", tenant.commissionRates},
            {"attributionWindowDays", tenant.attributionWindowDays},
            {"disabled", tenant.disabled}};
}

}  // namespace

OperatorRoutes::OperatorRoutes(OperatorAuth& auth, TenantStore& tenants, FeedImportStore& history, FeedImportService& imports,
                               WidgetSettingsStore& widgetSettings, std::string consoleDir,
                               OperatorConsoleOptions options, const Clock& clock, std::function<void(int64_t)> widgetSettingsChanged)
    : auth_(auth),
      tenants_(tenants),
      tenantService_(tenants),
      history_(history),
      imports_(imports),
      widgetSettings_(&widgetSettings),
      consoleFiles_(std::move(consoleDir)),
      options_(options),
      clock_(clock),
      widgetSettingsChanged_(std::move(widgetSettingsChanged)) {}

void OperatorRoutes::registerOn(httplib::Server& server) {
    const std::string tenant = std::string("/operator/api/tenants/") + kApiId;
    server.Post("/operator/api/session", [this](const httplib::Request& q, httplib::Response& r) { signIn(q, r); });
    server.Delete("/operator/api/session", [this](const httplib::Request& q, httplib::Response& r) { signOut(q, r); });
    server.Get("/operator/api/me", [this](const httplib::Request& q, httplib::Response& r) { me(q, r); });
    server.Get("/operator/api/tenants", [this](const httplib::Request& q, httplib::Response& r) { listTenants(q, r); });
    server.Post("/operator/api/tenants", [this](const httplib::Request& q, httplib::Response& r) { createTenant(q, r); });
    server.Get(tenant, [this](const httplib::Request& q, httplib::Response& r) { getTenant(q, r); });
    server.Patch(tenant, [this](const httplib::Request& q, httplib::Response& r) { updateTenant(q, r); });
    server.Post(tenant + "/secret", [this](const httplib::Request& q, httplib::Response& r) { rotateSecret(q, r); });
    server.Post(tenant + "/disable", [this](const httplib::Request& q, httplib::Response& r) { setDisabled(q, r, true); });
    server.Post(tenant + "/enable", [this](const httplib::Request& q, httplib::Response& r) { setDisabled(q, r, false); });
    server.Get(tenant + "/widgets", [this](const httplib::Request& q, httplib::Response& r) { getWidgets(q, r); });
    server.Put(tenant + "/widgets", [this](const httplib::Request& q, httplib::Response& r) { putWidgets(q, r); });
    server.Get(tenant + "/imports", [this](const httplib::Request& q, httplib::Response& r) { listImports(q, r); });
    server.Get(tenant + "/imports/([0-9]{1,18})/errors\\.csv", [this](const httplib::Request& q, httplib::Response& r) { rowErrorsCsv(q, r); });
    server.Post(tenant + "/imports/([0-9]{1,18})/confirm", [this](const httplib::Request& q, httplib::Response& r) { decideHeld(q, r, true); });
    server.Post(tenant + "/imports/([0-9]{1,18})/discard", [this](const httplib::Request& q, httplib::Response& r) { decideHeld(q, r, false); });
    server.Get("/operator/api/shops", [this](const httplib::Request& q, httplib::Response& r) { listShops(q, r); });
    server.Get("/console", [](const httplib::Request&, httplib::Response& r) { r.set_redirect("/console/"); });
    server.Get("/console/(.*)", [this](const httplib::Request& q, httplib::Response& r) { serveConsole(q, r); });
}

void OperatorRoutes::signIn(const httplib::Request& request, httplib::Response& response) {
    // No other site may sign a browser in (into an account of the attacker's, say).
    if (auto origin = auth_.sameOrigin(request); !origin) return sendError(response, origin.error());
    auto body = readJsonBody(request);
    if (!body) return sendError(response, body.error());
    std::vector<Error> errors;
    std::string email = body->value("email", json()).is_string() ? (*body)["email"].get<std::string>() : "";
    std::string password = body->value("password", json()).is_string() ? (*body)["password"].get<std::string>() : "";
    if (trim(email).empty()) errors.push_back(Error::invalidArgument("email: required"));
    if (password.empty()) errors.push_back(Error::invalidArgument("password: required"));
    if (!errors.empty()) return sendFieldErrors(response, errors);
    auto signedIn = auth_.accounts().signIn(email, password, clientAddress(request));
    // A lock-out is RateLimited (429); a full hash gate is an Unavailable with a retry-after,
    // shown and not logged as a fault: a flood of sign-ins is turned away by design (docs/adr/0059).
    if (!signedIn) {
        response.set_header("Cache-Control", "no-store");
        return sendError(response, signedIn.error());
    }
    // Set by --secure-cookies or an https public URL (docs/adr/0068); never by a request header,
    // which any client can send.
    bool secure = options_.secureCookies;
    // HttpOnly: no script reads it; SameSite=Strict: no other site's page sends it; Path: only the API gets it.
    response.set_header("Set-Cookie", std::string(kSessionCookie) + "=" + signedIn->token + "; Path=/operator/api; Max-Age=" +
                                          std::to_string(OperatorAccounts::kSessionSeconds) + "; HttpOnly; SameSite=Strict" +
                                          (secure ? "; Secure" : ""));
    sendJson(response, 200, {{"email", signedIn->session.email}, {"csrfToken", signedIn->session.csrfToken},
                             {"expiresAt", signedIn->session.expiresAt}}, JsonCaching::NoStore);
}

void OperatorRoutes::signOut(const httplib::Request& request, httplib::Response& response) {
    auto caller = auth_.authenticate(request, true);
    if (!caller) return sendError(response, caller.error());
    if (auto status = auth_.accounts().signOut(OperatorAuth::sessionToken(request)); !status) return sendError(response, status.error());
    response.set_header("Set-Cookie", std::string(kSessionCookie) + "=; Path=/operator/api; Max-Age=0; HttpOnly; SameSite=Strict");
    response.status = 204;
}

void OperatorRoutes::me(const httplib::Request& request, httplib::Response& response) {
    auto caller = auth_.authenticate(request, false);
    if (!caller) return sendError(response, caller.error());
    if (caller->email.empty()) return sendJson(response, 200, {{"email", nullptr}, {"via", "operator-key"}}, JsonCaching::NoStore);
    sendJson(response, 200, {{"email", caller->email}, {"csrfToken", caller->csrfToken}, {"via", "session"}}, JsonCaching::NoStore);
}

void OperatorRoutes::listTenants(const httplib::Request& request, httplib::Response& response) {
    auto caller = auth_.authenticate(request, false);
    if (!caller) return sendError(response, caller.error());
    std::vector<std::pair<std::string, std::string>> parameters(request.params.begin(), request.params.end());
    auto query = FleetQuery::parse(parameters);
    if (!query) return sendError(response, query.error());
    if (!fleet_) return sendError(response, Error::unavailable("the fleet view is unavailable"));
    // Every tenant with its facts from a fixed number of aggregate queries (docs/adr/0066); the
    // search, the order and the page are then computed in memory.
    auto all = tenants_.list();
    if (!all) return sendError(response, all.error());
    int64_t now = clock_.nowSeconds();
    CalendarMonth month = CalendarMonth::of(now), lastMonth = month.previous();
    auto facts = fleet_->facts(FleetPeriod{month.key(), lastMonth.key(), now - kQuarantineWindowSeconds});
    if (!facts) return sendError(response, facts.error());
    auto widgetErrors = widgetErrors_ ? widgetErrors_->lastDay(now) : std::unordered_map<int64_t, WidgetErrorFacts>{};
    static const TenantFleetFacts kNoFacts;
    static const WidgetErrorFacts kNoErrors;
    std::vector<FleetEntry> entries;
    std::vector<TenantAttention> attention;
    entries.reserve(all->size());
    attention.reserve(all->size());
    size_t needingAttention = 0;
    for (const Tenant& tenant : *all) {
        auto found = facts->find(tenant.id);
        auto errors = widgetErrors.find(tenant.id);
        const TenantFleetFacts& known = found == facts->end() ? kNoFacts : found->second;
        attention.push_back(TenantAttention::of(TenantAttentionInput{&known, errors == widgetErrors.end() ? kNoErrors : errors->second,
                                                                     tenant.disabled, now, month.startSeconds(), month.endSeconds()}));
        FleetEntry entry{tenant.name, tenant.apiId, tenant.feedId, {}, tenant.disabled, attention.back().score,
                         known.widgetEventsThisMonth, known.commissionThisMonth};
        for (const auto& url : known.shopUrls) entry.domains.push_back(FleetListing::hostOf(url));
        entries.push_back(std::move(entry));
        if (attention.back().score > 0) ++needingAttention;
    }
    FleetSlice slice = FleetListing::select(entries, *query);
    json items = json::array();
    for (size_t index : slice.entries) {
        const Tenant& tenant = (*all)[index];
        auto found = facts->find(tenant.id);
        auto errors = widgetErrors.find(tenant.id);
        const TenantFleetFacts& known = found == facts->end() ? kNoFacts : found->second;
        const WidgetErrorFacts& failed = errors == widgetErrors.end() ? kNoErrors : errors->second;
        json item = tenantJson(tenant, known.country);
        json reasons = json::array();
        for (const auto& reason : attention[index].reasons) {
            reasons.push_back({{"kind", TenantAttention::name(reason.kind)}, {"points", reason.points}, {"detail", reason.detail}});
        }
        item["attention"] = {{"score", attention[index].score}, {"reasons", reasons}};
        json feeds = json::array();
        for (const auto& feed : known.feeds) {
            auto freshness = FeedFreshness::of(FeedFreshnessInput{feed.lastAppliedAt, feed.pullIntervalSeconds}, now);
            bool failing = feed.lastStatus == "failed" || feed.lastPullResult.rfind("failed", 0) == 0;
            feeds.push_back({{"feed", feed.feed},
                             {"delivery", feed.pullIntervalSeconds ? "pull" : "push"},
                             {"state", failing ? "failing" : FeedFreshness::name(freshness.state)},
                             {"lastAppliedAt", feed.lastAppliedAt},
                             {"lastStatus", feed.lastStatus},
                             {"lastMessage", redactUrlsIn(feed.lastMessage)},
                             {"lastPullAt", feed.lastPullAt},
                             {"lastPullResult", redactUrlsIn(feed.lastPullResult)}});
        }
        item["feeds"] = feeds;
        item["heldImports"] = known.heldImports;
        item["purchases"] = {{"quarantined", known.quarantinedLines}, {"waiting", known.waitingPurchases},
                             {"oldestWaitingAt", known.oldestWaitingAt}, {"thisMonth", known.purchasesThisMonth},
                             {"lastMonth", known.purchasesLastMonth}};
        item["widgetErrors"] = {{"lastDay", failed.lastDay}, {"lastMessage", failed.lastMessage}};
        item["traffic"] = {{"thisMonth", known.widgetEventsThisMonth}, {"lastMonth", known.widgetEventsLastMonth}};
        item["commission"] = {{"thisMonth", known.commissionThisMonth}, {"lastMonth", known.commissionLastMonth}};
        item["domains"] = entries[index].domains;
        items.push_back(std::move(item));
    }
    sendJson(response, 200,
                     {{"tenants", items},
                      {"total", all->size()},
                      {"matching", slice.matching},
                      {"needingAttention", needingAttention},
                      {"q", query->search},
                      {"sort", FleetQuery::sortName(query->sort)},
                      {"page", query->page},
                      {"limit", query->limit},
                      {"pages", slice.pages},
                      {"months", {{"this", month.text()}, {"last", lastMonth.text()}}},
                      {"now", now}}, JsonCaching::NoStore);
}

void OperatorRoutes::createTenant(const httplib::Request& request, httplib::Response& response) {
    auto caller = auth_.authenticate(request, true);
    if (!caller) return sendError(response, caller.error());
    auto body = readJsonBody(request);
    if (!body) return sendError(response, body.error());
    if (!body->contains("name")) return sendFieldErrors(response, {Error::invalidArgument("name: required")});
    auto name = jsonStringMember(*body, "name");
    if (!name) return sendFieldErrors(response, {name.error()});
    auto created = tenantService_.create(*name);
    if (!created) return sendFieldErrors(response, {created.error()});
    // The only time the secret is ever shown: only its hash is stored.
    sendJson(response, 201, {{"tenant", tenantJson(created->tenant, "")}, {"apiSecret", created->apiSecret}}, JsonCaching::NoStore);
}

void OperatorRoutes::getTenant(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, false);
    if (!tenant) return sendError(response, tenant.error());
    auto settings = widgetSettings_->load(tenant->id);
    if (!settings) return sendError(response, settings.error());
    json body = tenantJson(*tenant, settings->country);
    body["consent"] = consentName(settings->consent);
    sendJson(response, 200, body, JsonCaching::NoStore);
}

void OperatorRoutes::updateTenant(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, true);
    if (!tenant) return sendError(response, tenant.error());
    auto body = readJsonBody(request);
    if (!body) return sendError(response, body.error());

    // The JSON types here, the rules in TenantSettingsCommand (shared with `tenant configure`);
    // every field is checked before anything is written and all problems are answered at once.
    std::vector<Error> errors;
    TenantSettingsChange change;
    auto text = [&](const char* field, std::optional<std::string>& into) {
        if (!body->contains(field)) return;
        auto value = jsonStringMember(*body, field);
        if (!value) errors.push_back(value.error());
        else into = *value;
    };
    text("currency", change.currency);
    text("locale", change.locale);
    text("country", change.country);
    text("commissionRates", change.commissionRates);
    text("consent", change.consent);
    if (body->contains("attributionWindowDays")) {
        const auto& value = (*body)["attributionWindowDays"];
        if (!value.is_number_integer()) errors.push_back(Error::invalidField("attributionWindowDays", "a whole number of days from 1 to 365"));
        else change.attributionWindowDays = value.get<int64_t>();
    }
    for (auto& error : TenantSettingsCommand::check(change, TenantSettingsFields::api())) errors.push_back(std::move(error));
    if (!errors.empty()) return sendFieldErrors(response, errors);

    TenantSettingsCommand command(tenants_, widgetSettings_, clock_);
    auto updated = command.apply(*tenant, change, TenantSettingsFields::api());
    if (!updated) return sendError(response, updated.error());
    if (TenantSettingsCommand::changesWidgetSettings(change)) widgetSettingsChanged_(tenant->id);
    getTenant(request, response);
}

void OperatorRoutes::rotateSecret(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, true);
    if (!tenant) return sendError(response, tenant.error());
    auto secret = tenantService_.rotateSecret(tenant->id);
    if (!secret) return sendError(response, secret.error());
    sendJson(response, 200, {{"apiId", tenant->apiId}, {"apiSecret", *secret}}, JsonCaching::NoStore);
}

void OperatorRoutes::setDisabled(const httplib::Request& request, httplib::Response& response, bool disabled) {
    auto tenant = auth_.tenantFor(request, true);
    if (!tenant) return sendError(response, tenant.error());
    if (auto status = tenants_.setDisabled(tenant->id, disabled); !status) return sendError(response, status.error());
    getTenant(request, response);
}

void OperatorRoutes::getWidgets(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, false);
    if (!tenant) return sendError(response, tenant.error());
    auto settings = widgetSettings_->load(tenant->id);
    if (!settings) return sendError(response, settings.error());
    json texts = json::object();
    // Bundles were checked when stored; one that no longer reads shows as null rather than failing the page.
    auto bundleJson = [](const std::string& text) {
        auto parsed = BoundedJson::parse(text, "texts");
        return parsed ? std::move(*parsed) : json();
    };
    for (const auto& [language, bundle] : settings->textBundles) texts[language] = bundleJson(bundle);
    json keys = json::array();
    for (size_t i = 0; i < kTextKeyCount; ++i) keys.push_back(WidgetTexts::nameOf(static_cast<TextKey>(i)));
    json builtIn = json::object();
    for (const char* language : {"en", "de"}) {
        if (auto bundle = WidgetTexts::builtIn(language)) builtIn[language] = bundleJson(bundle->toJson());
    }
    // CSS saved before the checks of docs/adr/0058 may hold parts shops no longer get: the
    // console says which, next to the field.
    json cssProblems = json::array();
    for (const auto& problem : WidgetSettings::scopedCss(settings->css).problems) cssProblems.push_back(problem.describe());
    sendJson(response, 200, {{"languageRule", LanguageRule::sourceName(settings->languageRule.source)},
                             {"defaultLanguage", settings->languageRule.defaultLanguage},
                             {"css", settings->css},
                             {"cssProblems", cssProblems},
                             {"texts", texts},
                             {"textKeys", keys},
                             {"builtInTexts", builtIn}}, JsonCaching::NoStore);
}

void OperatorRoutes::putWidgets(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, true);
    if (!tenant) return sendError(response, tenant.error());
    auto body = readJsonBody(request);
    if (!body) return sendError(response, body.error());

    std::vector<Error> errors;
    WidgetSettingsChange change;
    if (body->contains("languageRule")) {
        auto text = jsonStringMember(*body, "languageRule");
        auto source = text ? LanguageRule::parseSource(*text, "languageRule") : Result<LanguageSource>(text.error());
        if (!source) errors.push_back(source.error());
        else change.languageSource = *source;
    }
    if (body->contains("defaultLanguage")) {
        auto text = jsonStringMember(*body, "defaultLanguage");
        auto language = text ? LanguageRule::primaryLanguage(*text) : std::nullopt;
        if (!text || !language || *language != *text) {
            errors.push_back(Error::invalidArgument("defaultLanguage: '" + (text ? *text : std::string()) +
                                                    "' is not a lower-case language code such as en or de"));
        } else {
            change.defaultLanguage = *text;
        }
    }
    if (body->contains("css")) {
        auto css = jsonStringMember(*body, "css");
        if (!css) errors.push_back(css.error());
        else if (auto valid = WidgetSettings::validCss(*css, "css"); !valid) errors.push_back(valid.error());
        else change.css = *css;
    }
    std::optional<std::map<std::string, std::string>> bundles;
    if (body->contains("texts")) {
        const json& texts = (*body)["texts"];
        if (!texts.is_object()) {
            errors.push_back(Error::invalidArgument("texts: must be an object of language to texts"));
        } else {
            bundles.emplace();
            for (const auto& [language, bundle] : texts.items()) {
                auto primary = LanguageRule::primaryLanguage(language);
                if (!primary || *primary != language) {
                    errors.push_back(Error::invalidArgument("texts." + language + ": not a lower-case language code such as en or de"));
                    continue;
                }
                // Every text checked here, so nothing is written when one is wrong; the field
                // names the language too: "texts.de.addToCart".
                WidgetTexts check;
                if (auto valid = check.applyJson(bundle.dump()); !valid) {
                    std::string message = valid.error().message;
                    if (message.rfind("texts", 0) == 0) message = "texts." + language + message.substr(5);
                    errors.push_back(Error::invalidArgument(message));
                    continue;
                }
                (*bundles)[language] = bundle.dump();
            }
        }
    }
    if (!errors.empty()) return sendFieldErrors(response, errors);

    int64_t now = clock_.nowSeconds();
    if (auto status = widgetSettings_->change(tenant->id, change, now); !status) return sendFieldErrors(response, {status.error()});
    if (bundles) {
        // The body's bundles replace the tenant's: languages it leaves out are removed.
        auto current = widgetSettings_->load(tenant->id);
        if (!current) return sendError(response, current.error());
        for (const auto& [language, unused] : current->textBundles) {
            if (!bundles->count(language)) {
                if (auto status = widgetSettings_->removeTexts(tenant->id, language); !status) return sendError(response, status.error());
            }
        }
        for (const auto& [language, bundle] : *bundles) {
            if (auto status = widgetSettings_->setTexts(tenant->id, language, bundle, now); !status) return sendFieldErrors(response, {status.error()});
        }
    }
    widgetSettingsChanged_(tenant->id);
    getWidgets(request, response);
}

void OperatorRoutes::listImports(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, false);
    if (!tenant) return sendError(response, tenant.error());
    auto records = history_.list(tenant->id, "", 100);
    if (!records) return sendError(response, records.error());
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& record : *records) list.push_back(importRecordJson(record, false));
    response.set_header("Cache-Control", "no-store");
    response.set_content(nlohmann::ordered_json{{"imports", list}}.dump(), "application/json");
}

void OperatorRoutes::rowErrorsCsv(const httplib::Request& request, httplib::Response& response) {
    auto tenant = auth_.tenantFor(request, false);
    if (!tenant) return sendError(response, tenant.error());
    auto id = parseInt64(std::string(request.matches[2]));
    auto record = history_.find(tenant->id, id.value_or(0));
    if (!record) return sendError(response, record.error());
    if (!*record) return sendError(response, Error::notFound("import " + std::string(request.matches[2]) + " does not exist"));
    // Quoted fields, so a message with a comma or quote stays one field; a message quoting the
    // feed that starts like a formula gets a leading ' so no spreadsheet evaluates it.
    auto quoted = [](const std::string& text) {
        std::string out = "\"";
        if (!text.empty() && std::string_view("=+-@").find(text.front()) != std::string_view::npos) out += '\'';
        for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
        return out + "\"";
    };
    std::string csv = "line,column,kind,message\r\n";
    for (const auto& error : (*record)->rowErrors) {
        csv += std::to_string(error.line) + "," + std::to_string(error.column) + "," + quoted(std::string(rowErrorKindName(error.kind))) + "," +
               quoted(error.message) + "\r\n";
    }
    response.set_header("Cache-Control", "no-store");
    response.set_header("Content-Disposition",
                        "attachment; filename=\"import-" + std::to_string((*record)->id) + "-row-errors.csv\"");
    response.set_content(csv, "text/csv; charset=utf-8");
}

void OperatorRoutes::decideHeld(const httplib::Request& request, httplib::Response& response, bool confirm) {
    auto tenant = auth_.tenantFor(request, true);
    if (!tenant) return sendError(response, tenant.error());
    int64_t id = parseInt64(std::string(request.matches[2])).value_or(0);
    if (confirm) {
        // Applies the held file now; the answer comes when the import is done.
        auto outcome = imports_.confirm(*tenant, id);
        if (!outcome) return sendError(response, outcome.error());
        return sendJson(response, 200, json(importRecordJson(outcome->record, false)), JsonCaching::NoStore);
    }
    auto record = imports_.discard(*tenant, id);
    if (!record) return sendError(response, record.error());
    sendJson(response, 200, json(importRecordJson(*record, false)), JsonCaching::NoStore);
}

void OperatorRoutes::serveConsole(const httplib::Request& request, httplib::Response& response) {
    std::string path = request.matches[1];
    if (path.empty()) path = "index.html";
    auto file = consoleFiles_.read(path);
    if (!file) return sendError(response, Error::notFound("no such console file"));
    response.set_header("Content-Security-Policy", kConsolePolicy);
    response.set_header("X-Content-Type-Options", "nosniff");
    response.set_header("Referrer-Policy", "same-origin");
    response.set_header("Cache-Control", "no-cache");
    response.set_content(file->content, file->contentType);
}

// What an operator needs to see of each plugin connection: whose shop, the endpoints it
// announced, when the shop last registered, when its plugin last answered svc, and how the last
// pull went. The feed ID is left out: it is the shop's credential (docs/adr/0035).
void OperatorRoutes::listShops(const httplib::Request& request, httplib::Response& response) {
    auto caller = auth_.authenticate(request, false);
    if (!caller) return sendError(response, caller.error());
    if (!shops_) return sendError(response, Error::unavailable("shop registrations are not available on this server"));
    auto all = shops_->list();
    if (!all) return sendError(response, all.error());
    json items = json::array();
    for (const auto& shop : *all) {
        auto tenant = tenants_.findById(shop.tenantId);
        if (!tenant) return sendError(response, tenant.error());
        items.push_back({{"apiId", *tenant ? (*tenant)->apiId : ""},
                         {"tenantName", *tenant ? (*tenant)->name : ""},
                         {"registration", toJson(shop.record)},
                         {"registeredAt", shop.createdAt},
                         {"lastRegistrationAt", shop.updatedAt},
                         {"lastContactAt", shop.lastContactAt},
                         {"lastPullAt", shop.lastPullAt},
                         {"lastPullResult", shop.lastPullResult}});
    }
    sendJson(response, 200, {{"shops", items}}, JsonCaching::NoStore);
}

}  // namespace svc
