#pragma once
// The origin under which svc is reached from the internet (`serve --public-url`, docs/adr/0068):
// every URL svc hands out (loader.js's base, SDK and content URLs, pre-signed uploads,
// thumbnails, set photos and previews) starts with it. Behind a TLS proxy, the request svc sees
// says neither the scheme nor, trustworthily, the host, so neither is taken from the request.
#include <string>
#include <string_view>

#include "core/Result.hpp"

namespace svc {

class PublicUrl {
public:
    // "https://svc.example.com", "http://10.0.0.5:8080", "https://[2001:db8::1]:8443": scheme http
    // or https, a host, an optional port; a path ("/" alone is allowed), query, fragment or
    // user info is refused. Errors name `option`.
    static Result<PublicUrl> parse(std::string_view text, const std::string& option = "--public-url");

    // scheme://host[:port] in lower case, the scheme's default port left out (as browsers say
    // it in Origin headers); no trailing slash.
    const std::string& origin() const { return origin_; }
    bool https() const { return https_; }

private:
    std::string origin_;
    bool https_ = false;
};

// True for a Host header naming this machine's loopback: localhost, 127.0.0.0/8 or [::1], each
// with an optional port. Only such Hosts are echoed when no public URL is set (the demo).
bool isLoopbackHost(std::string_view hostHeader);

}  // namespace svc
