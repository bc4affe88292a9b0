#pragma once
// Compression decided by svc, not by cpp-httplib. Debian's cpp-httplib is built with
// Brotli: it compresses every text/JSON answer on every request at Brotli's slowest
// quality, with no setting to change that (0.11) — 3.7 s for the demo shop's catalog,
// 0.24 s for sdk.js, a few milliseconds on every small answer. So the server takes the
// shopper's Accept-Encoding out of the request before routing (httplib then never
// compresses) and files worth it are served gzip-compressed once, from memory
// (docs/adr/0031).
#include <optional>
#include <string>
#include <string_view>

#include <httplib.h>

namespace svc {

class ResponseCompression {
public:
    // Called first in the pre-routing handler: remembers whether the client takes gzip
    // (in a request header of svc's own) and removes Accept-Encoding.
    static void takeOverNegotiation(const httplib::Request& request);
    // After takeOverNegotiation: the client named gzip in Accept-Encoding, without q=0.
    static bool clientAcceptsGzip(const httplib::Request& request);
    // The Accept-Encoding rule itself (RFC 9110 12.5.3): gzip or "*" with a weight above 0.
    static bool acceptsGzip(std::string_view acceptEncoding);
    // gzip (RFC 1952) of `data`; level 1 (fast) to 9 (small).
    static std::string gzip(std::string_view data, int level);
    // Worth compressing: text formats, JSON (also +json types), JavaScript, Wasm, SVG; at least 1 KiB.
    static bool worthCompressing(std::string_view contentType, size_t size);
    // Sets the body, gzip-compressed when the client takes it and it is worth it. `gzipped`
    // is a compressed copy made earlier (preloaded files), or empty to compress now.
    static void setBody(const httplib::Request& request, httplib::Response& response, const std::string& body,
                        const std::string& contentType, const std::string& gzipped = {});
};

}  // namespace svc
