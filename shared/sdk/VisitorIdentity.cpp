#include "sdk/VisitorIdentity.hpp"

#include "sdk/CookieDomain.hpp"
#include "text/JsonReader.hpp"
#include "text/JsonWriter.hpp"
#include "text/StringUtil.hpp"

namespace svc {
namespace {

std::string newId(BrowserStorage& storage) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string bytes = storage.randomBytes(16);
    std::string id;
    for (unsigned char byte : bytes) {
        id += kHex[byte >> 4];
        id += kHex[byte & 0x0F];
    }
    return id;
}

}  // namespace

std::optional<std::string> VisitorIdentity::cookieValue(std::string_view documentCookie, std::string_view name) {
    size_t start = 0;
    while (start <= documentCookie.size()) {
        size_t end = documentCookie.find(';', start);
        if (end == std::string_view::npos) end = documentCookie.size();
        std::string_view pair = trim(documentCookie.substr(start, end - start));
        size_t equals = pair.find('=');
        if (equals != std::string_view::npos && trim(pair.substr(0, equals)) == name) {
            return std::string(trim(pair.substr(equals + 1)));
        }
        start = end + 1;
    }
    return std::nullopt;
}

bool VisitorIdentity::isValidId(const std::string& id) {
    if (id.size() != 32) return false;
    for (char c : id) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    }
    return true;
}

std::string VisitorIdentity::cidCookie(const std::string& value, const std::string& domain, bool secure) {
    // Max-Age rather than Expires: no clock needed, and every browser the SDK runs in knows it.
    std::string cookie = std::string(kCidCookie) + "=" + value + "; Max-Age=" + std::to_string(kCidMaxAgeSeconds) +
                         "; Path=/; SameSite=Lax";
    if (!domain.empty()) cookie += "; Domain=" + domain;
    if (secure) cookie += "; Secure";
    return cookie;
}

void VisitorIdentity::forget(BrowserStorage& storage) {
    std::string expired = std::string(kCidCookie) + "=; Max-Age=0; Path=/; SameSite=Lax";
    if (storage.secureContext()) expired += "; Secure";
    if (auto domain = CookieDomain::registrableDomain(storage.hostname())) storage.setCookie(expired + "; Domain=" + *domain);
    storage.setCookie(expired);
    storage.removeItem(StorageArea::Session, kSessionKey);
    storage.removeItem(StorageArea::Local, kConfigKey);
}

VisitorIds VisitorIdentity::establish(BrowserStorage& storage) {
    VisitorIds ids;
    auto existing = storage.cookie(kCidCookie);
    ids.cid = existing && isValidId(*existing) ? *existing : newId(storage);
    bool secure = storage.secureContext();
    // The registrable domain first; when the browser refuses it (a suffix missing from
    // our list, a host under a private suffix), the host itself.
    auto domain = CookieDomain::registrableDomain(storage.hostname());
    if (domain) {
        storage.setCookie(cidCookie(ids.cid, *domain, secure));
        ids.cidStored = storage.cookie(kCidCookie) == ids.cid;
    }
    if (!ids.cidStored) {
        storage.setCookie(cidCookie(ids.cid, "", secure));
        ids.cidStored = storage.cookie(kCidCookie) == ids.cid;
    }

    auto sid = storage.item(StorageArea::Session, kSessionKey);
    if (sid && isValidId(*sid)) {
        ids.sid = *sid;
    } else {
        ids.sid = newId(storage);
        storage.setItem(StorageArea::Session, kSessionKey, ids.sid);
    }

    // {"variant": "..."}: written by the SDK when absent, so a visitor keeps the engine
    // variant across visits; other members are kept for later engine settings.
    auto config = storage.item(StorageArea::Local, kConfigKey);
    auto parsed = config ? JsonReader::parse(*config) : Result<JsonValue>(Error::notFound("absent"));
    if (parsed && parsed->isObject()) {
        ids.variant = parsed->stringMember("variant").value_or("");
    } else {
        ids.variant = "default";
        std::string json = "{\"variant\":";
        appendJsonString(json, ids.variant);
        storage.setItem(StorageArea::Local, kConfigKey, json + "}");
    }
    return ids;
}

}  // namespace svc
