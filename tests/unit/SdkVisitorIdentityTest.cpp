// Unit tests of sdk/CookieDomain and sdk/VisitorIdentity against an in-memory browser
// storage that, like a browser, refuses a cookie whose Domain does not cover the host.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sdk/CookieDomain.hpp"
#include "sdk/VisitorIdentity.hpp"

using svc::CookieDomain;
using svc::StorageArea;
using svc::VisitorIdentity;

namespace {

class MemoryStorage : public svc::BrowserStorage {
public:
    std::string host = "www.shop.example.co.uk";
    bool secure = true;
    bool blocked = false;                   // every access fails, as with throwing getters
    std::vector<std::string> publicSuffixes{"co.uk", "uk", "de", "com"};  // what the "browser" refuses as a Domain
    std::map<std::string, std::string> cookies;  // name -> value (the page sees one per name here)
    std::vector<std::string> assignments;
    std::map<std::string, std::string> local, session;
    int randomCalls = 0;

    std::optional<std::string> cookie(const std::string& name) override {
        if (blocked) return std::nullopt;
        auto it = cookies.find(name);
        return it == cookies.end() ? std::nullopt : std::optional<std::string>(it->second);
    }
    void setCookie(const std::string& assignment) override {
        if (blocked) return;
        assignments.push_back(assignment);
        std::string name = assignment.substr(0, assignment.find('='));
        std::string value = assignment.substr(name.size() + 1, assignment.find(';') - name.size() - 1);
        size_t domainAt = assignment.find("; Domain=");
        if (domainAt != std::string::npos) {
            std::string domain = assignment.substr(domainAt + 9);
            domain = domain.substr(0, domain.find(';'));
            bool covers = host == domain || (host.size() > domain.size() &&
                                             host.compare(host.size() - domain.size() - 1, std::string::npos, "." + domain) == 0);
            for (const auto& suffix : publicSuffixes) covers = covers && domain != suffix;
            if (!covers) return;  // the browser ignores it silently
        }
        if (assignment.find("; Max-Age=0;") != std::string::npos) {
            cookies.erase(name);
            return;
        }
        cookies[name] = value;
    }
    std::optional<std::string> item(StorageArea area, const std::string& key) override {
        if (blocked) return std::nullopt;
        auto& store = area == StorageArea::Local ? local : session;
        auto it = store.find(key);
        return it == store.end() ? std::nullopt : std::optional<std::string>(it->second);
    }
    bool setItem(StorageArea area, const std::string& key, const std::string& value) override {
        if (blocked) return false;
        (area == StorageArea::Local ? local : session)[key] = value;
        return true;
    }
    void removeItem(StorageArea area, const std::string& key) override {
        if (!blocked) (area == StorageArea::Local ? local : session).erase(key);
    }
    std::string randomBytes(size_t count) override {
        ++randomCalls;
        std::string bytes;
        for (size_t i = 0; i < count; ++i) bytes += static_cast<char>((randomCalls * 37 + i * 11) & 0xFF);
        return bytes;
    }
    std::string hostname() override { return host; }
    bool secureContext() override { return secure; }
};

}  // namespace

TEST_CASE("CookieDomain::registrableDomain: two labels, three under a multi-part suffix, none for IPs and bare names") {
    struct DomainCase {
        std::string host;
        std::optional<std::string> domain;
    };
    const std::vector<DomainCase> cases{
        {"www.shop.de", "shop.de"},
        {"shop.de", "shop.de"},
        {"a.b.c.shop.com", "shop.com"},
        {"WWW.Shop.DE.", "shop.de"},
        {"www.shop.co.uk", "shop.co.uk"},
        {"shop.co.uk", "shop.co.uk"},
        {"checkout.shop.com.au", "shop.com.au"},
        {"co.uk", std::nullopt},
        {"de", std::nullopt},
        {"localhost", std::nullopt},
        {"127.0.0.1", std::nullopt},
        {"[::1]", std::nullopt},
        {"::1", std::nullopt},
        {"", std::nullopt},
        {".shop.de", std::nullopt},
        {"a..de", std::nullopt},
    };
    for (const auto& c : cases) {
        CAPTURE(c.host);
        CHECK(CookieDomain::registrableDomain(c.host) == c.domain);
    }
    CHECK(CookieDomain::isMultiPartSuffix("co.uk"));
    CHECK_FALSE(CookieDomain::isMultiPartSuffix("shop.uk"));
}

TEST_CASE("VisitorIdentity: a first visit creates cid (cookie on the registrable domain, 730 days), sid and the config") {
    MemoryStorage storage;
    auto ids = VisitorIdentity::establish(storage);
    CHECK(VisitorIdentity::isValidId(ids.cid));
    CHECK(VisitorIdentity::isValidId(ids.sid));
    CHECK(ids.cid != ids.sid);
    CHECK(ids.cidStored);
    REQUIRE(storage.assignments.size() == 1);
    CHECK(storage.assignments[0] ==
          "_svc_cid=" + ids.cid + "; Max-Age=63072000; Path=/; SameSite=Lax; Domain=example.co.uk; Secure");
    CHECK(storage.cookies["_svc_cid"] == ids.cid);
    CHECK(storage.session["_svc_sid"] == ids.sid);
    CHECK(storage.local["_svc_cse_config"] == R"({"variant":"default"})");
    CHECK(ids.variant == "default");
}

TEST_CASE("VisitorIdentity: a later visit keeps the ids and refreshes the cookie; a new session gets a new sid") {
    MemoryStorage storage;
    auto first = VisitorIdentity::establish(storage);
    auto second = VisitorIdentity::establish(storage);
    CHECK(second.cid == first.cid);
    CHECK(second.sid == first.sid);
    CHECK(storage.assignments.size() == 2);  // written again: its 730 days start anew
    CHECK(storage.assignments[1] == storage.assignments[0]);

    storage.session.clear();  // the tab was closed
    storage.local["_svc_cse_config"] = R"({"variant":"B","other":1})";
    auto third = VisitorIdentity::establish(storage);
    CHECK(third.cid == first.cid);
    CHECK(third.sid != first.sid);
    CHECK(third.variant == "B");
    CHECK(storage.local["_svc_cse_config"] == R"({"variant":"B","other":1})");  // the SDK does not overwrite it
}

TEST_CASE("VisitorIdentity: a malformed stored id or config is replaced") {
    MemoryStorage storage;
    storage.cookies["_svc_cid"] = "<script>";
    storage.session["_svc_sid"] = "short";
    storage.local["_svc_cse_config"] = "{not json";
    auto ids = VisitorIdentity::establish(storage);
    CHECK(VisitorIdentity::isValidId(ids.cid));
    CHECK(VisitorIdentity::isValidId(ids.sid));
    CHECK(storage.cookies["_svc_cid"] == ids.cid);
    CHECK(storage.local["_svc_cse_config"] == R"({"variant":"default"})");
}

TEST_CASE("VisitorIdentity: a cookie the browser refuses on the domain falls back to the host; http has no Secure") {
    MemoryStorage storage;
    storage.host = "shop.unknown-registry.xy";
    storage.publicSuffixes.push_back("unknown-registry.xy");  // a multi-part suffix our list lacks
    storage.secure = false;
    auto ids = VisitorIdentity::establish(storage);
    CHECK(ids.cidStored);
    REQUIRE(storage.assignments.size() == 2);
    CHECK(storage.assignments[0].find("; Domain=unknown-registry.xy") != std::string::npos);
    CHECK(storage.assignments[1] == "_svc_cid=" + ids.cid + "; Max-Age=63072000; Path=/; SameSite=Lax");

    MemoryStorage local;
    local.host = "127.0.0.1";
    local.secure = false;
    auto localIds = VisitorIdentity::establish(local);
    CHECK(local.assignments == std::vector<std::string>{"_svc_cid=" + localIds.cid + "; Max-Age=63072000; Path=/; SameSite=Lax"});
}

TEST_CASE("VisitorIdentity: blocked storage still yields ids for this page") {
    MemoryStorage storage;
    storage.blocked = true;
    auto ids = VisitorIdentity::establish(storage);
    CHECK(VisitorIdentity::isValidId(ids.cid));
    CHECK(VisitorIdentity::isValidId(ids.sid));
    CHECK_FALSE(ids.cidStored);
    CHECK(ids.variant == "default");
}

TEST_CASE("VisitorIdentity::cookieValue reads one cookie out of document.cookie") {
    CHECK(VisitorIdentity::cookieValue("a=1; _svc_cid=abc; b=2", "_svc_cid") == std::optional<std::string>("abc"));
    CHECK(VisitorIdentity::cookieValue("_svc_cid=first;_svc_cid=second", "_svc_cid") == std::optional<std::string>("first"));
    CHECK(VisitorIdentity::cookieValue("x_svc_cid=1; _svc_cid_old=2", "_svc_cid") == std::nullopt);
    CHECK(VisitorIdentity::cookieValue("", "_svc_cid") == std::nullopt);
    CHECK(VisitorIdentity::cookieValue("_svc_cid=", "_svc_cid") == std::optional<std::string>(""));
    CHECK(VisitorIdentity::cookieValue("flag; _svc_cid=v", "_svc_cid") == std::optional<std::string>("v"));
}

TEST_CASE("VisitorIdentity::forget: consent denied removes the cookie on the registrable domain and both storage items") {
    MemoryStorage storage;
    auto ids = VisitorIdentity::establish(storage);
    REQUIRE(storage.cookies.count("_svc_cid") == 1);
    REQUIRE(storage.session.count("_svc_sid") == 1);
    REQUIRE(storage.local.count("_svc_cse_config") == 1);
    storage.assignments.clear();
    VisitorIdentity::forget(storage);
    CHECK(storage.cookies.empty());
    CHECK(storage.session.empty());
    CHECK(storage.local.empty());
    // Both places a cookie may have been written to (ADR 0083): the registrable domain and host-only.
    CHECK(storage.assignments == std::vector<std::string>{
                                     "_svc_cid=; Max-Age=0; Path=/; SameSite=Lax; Secure; Domain=example.co.uk",
                                     "_svc_cid=; Max-Age=0; Path=/; SameSite=Lax; Secure"});
    CHECK(ids.cidStored);
}
