#pragma once
// The operator API under /operator/api/ and the console's files under /console/
// (docs/api/operator.openapi.yaml, docs/adr/0039-0041): sign-in, tenants, widget settings,
// imports and shops. Every call is authenticated by OperatorAuth, so whatever the console does
// can be scripted with an operator key.
#include <httplib.h>

#include <functional>
#include <memory>
#include <string>

#include "core/Clock.hpp"
#include "feed/FeedImportService.hpp"
#include "store/FeedImportStore.hpp"
#include "http/OperatorAuth.hpp"
#include "http/StaticFiles.hpp"
#include "operator/OperatorAccounts.hpp"
#include "store/FleetStore.hpp"
#include "store/OperatorKeyStore.hpp"
#include "http/WidgetErrorCounts.hpp"
#include "store/ShopRegistrationStore.hpp"
#include "store/WidgetSettingsStore.hpp"
#include "store/TenantStore.hpp"
#include "tenant/TenantService.hpp"

namespace svc {

struct OperatorConsoleOptions {
    // Adds `Secure` to the session cookie. svc-server speaks plain HTTP; behind a TLS proxy an
    // https `--public-url` sets this (docs/adr/0068), as does `serve --secure-cookies`.
    bool secureCookies = false;
    // Of passwords hashed by this process (tests lower it; verification reads the stored hash's own).
    PasswordCost passwordCost = PasswordCost::interactive();
    // Argon2id hashes at once, the queue before them and its wait (docs/adr/0059; `serve --password-hash-slots`).
    PasswordHashLimits passwordHashes;
};

class OperatorRoutes {
public:
    static constexpr const char* kSessionCookie = OperatorAuth::kSessionCookie;

    OperatorRoutes(OperatorAuth& auth, TenantStore& tenants, FeedImportStore& history, FeedImportService& imports,
                   WidgetSettingsStore& widgetSettings, std::string consoleDir, OperatorConsoleOptions options,
                   const Clock& clock, std::function<void(int64_t)> widgetSettingsChanged);
    void registerOn(httplib::Server& server);
    // Shops registered by plugins (GET /operator/api/shops); without it the list answers 503.
    void setShopRegistrations(ShopRegistrationStore& registrations) { shops_ = &registrations; }
    // The fleet view's facts (GET /operator/api/tenants, docs/adr/0066); without them the list answers 503.
    void setFleet(FleetStore& fleet, const WidgetErrorCounts* widgetErrors) {
        fleet_ = &fleet;
        widgetErrors_ = widgetErrors;
    }

private:
    void signIn(const httplib::Request& request, httplib::Response& response);
    void signOut(const httplib::Request& request, httplib::Response& response);
    void me(const httplib::Request& request, httplib::Response& response);
    void listTenants(const httplib::Request& request, httplib::Response& response);
    void createTenant(const httplib::Request& request, httplib::Response& response);
    void getTenant(const httplib::Request& request, httplib::Response& response);
    void updateTenant(const httplib::Request& request, httplib::Response& response);
    void rotateSecret(const httplib::Request& request, httplib::Response& response);
    void setDisabled(const httplib::Request& request, httplib::Response& response, bool disabled);
    void getWidgets(const httplib::Request& request, httplib::Response& response);
    void putWidgets(const httplib::Request& request, httplib::Response& response);
    void listImports(const httplib::Request& request, httplib::Response& response);
    void rowErrorsCsv(const httplib::Request& request, httplib::Response& response);
    void decideHeld(const httplib::Request& request, httplib::Response& response, bool confirm);
    void listShops(const httplib::Request& request, httplib::Response& response);
    void serveConsole(const httplib::Request& request, httplib::Response& response);

    OperatorAuth& auth_;
    TenantStore& tenants_;
    TenantService tenantService_;
    FeedImportStore& history_;
    FeedImportService& imports_;
    WidgetSettingsStore* widgetSettings_;
    StaticFiles consoleFiles_;
    OperatorConsoleOptions options_;
    const Clock& clock_;
    std::function<void(int64_t)> widgetSettingsChanged_;
    ShopRegistrationStore* shops_ = nullptr;
    FleetStore* fleet_ = nullptr;
    const WidgetErrorCounts* widgetErrors_ = nullptr;
};

}  // namespace svc
