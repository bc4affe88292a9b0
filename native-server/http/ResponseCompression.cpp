#include "http/ResponseCompression.hpp"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace svc {
namespace {

// Not an HTTP header anyone else sends: what the shopper's Accept-Encoding said, for svc's handlers.
constexpr const char* kAcceptsGzipHeader = "svc-internal-accepts-gzip";

std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

}  // namespace

void ResponseCompression::takeOverNegotiation(const httplib::Request& request) {
    // httplib hands the handlers a const view of its own, non-const Request object: changing
    // the headers here is how the automatic compression is switched off (see the header).
    auto& mutableRequest = const_cast<httplib::Request&>(request);
    bool gzip = acceptsGzip(request.get_header_value("Accept-Encoding"));
    mutableRequest.headers.erase("Accept-Encoding");
    mutableRequest.headers.erase(kAcceptsGzipHeader);  // never trusted from the client
    if (gzip) mutableRequest.headers.emplace(kAcceptsGzipHeader, "1");
}

bool ResponseCompression::clientAcceptsGzip(const httplib::Request& request) { return request.has_header(kAcceptsGzipHeader); }

bool ResponseCompression::acceptsGzip(std::string_view acceptEncoding) {
    bool gzip = false;
    std::optional<bool> explicitGzip;
    while (!acceptEncoding.empty()) {
        size_t comma = acceptEncoding.find(',');
        std::string_view item = acceptEncoding.substr(0, comma);
        acceptEncoding = comma == std::string_view::npos ? std::string_view() : acceptEncoding.substr(comma + 1);
        size_t semicolon = item.find(';');
        std::string_view coding = trim(item.substr(0, semicolon));
        double weight = 1.0;
        if (semicolon != std::string_view::npos) {
            std::string_view parameter = trim(item.substr(semicolon + 1));
            if (parameter.size() > 2 && (parameter[0] == 'q' || parameter[0] == 'Q') && parameter[1] == '=') {
                weight = std::strtod(std::string(parameter.substr(2)).c_str(), nullptr);
            }
        }
        if (equalsIgnoringCase(coding, "gzip") || equalsIgnoringCase(coding, "x-gzip")) explicitGzip = weight > 0;
        else if (coding == "*") gzip = weight > 0;
    }
    return explicitGzip.value_or(gzip);
}

std::string ResponseCompression::gzip(std::string_view data, int level) {
    z_stream stream{};
    // 15 window bits + 16: a gzip header and trailer instead of zlib's.
    if (deflateInit2(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return {};
    std::string out(deflateBound(&stream, static_cast<uLong>(data.size())), '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    stream.avail_in = static_cast<uInt>(data.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    int status = deflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return status == Z_STREAM_END ? out : std::string();
}

bool ResponseCompression::worthCompressing(std::string_view contentType, size_t size) {
    if (size < 1024) return false;  // the headers cost more than the saving
    std::string_view mediaType = contentType.substr(0, contentType.find(';'));
    bool json = mediaType == "application/json" || (mediaType.size() > 5 && mediaType.substr(mediaType.size() - 5) == "+json");
    return contentType.rfind("text/", 0) == 0 || json ||
           contentType.rfind("application/wasm", 0) == 0 || contentType.rfind("image/svg+xml", 0) == 0;
}

void ResponseCompression::setBody(const httplib::Request& request, httplib::Response& response, const std::string& body,
                                  const std::string& contentType, const std::string& gzipped) {
    if (!worthCompressing(contentType, body.size())) return response.set_content(body, contentType);
    // Caches must keep the compressed and the plain answer apart: one Vary header, extended.
    if (auto vary = response.headers.find("Vary"); vary != response.headers.end()) vary->second += ", Accept-Encoding";
    else response.set_header("Vary", "Accept-Encoding");
    if (!clientAcceptsGzip(request)) return response.set_content(body, contentType);
    std::string compressed = gzipped.empty() ? gzip(body, 1) : gzipped;
    if (compressed.empty()) return response.set_content(body, contentType);
    response.set_header("Content-Encoding", "gzip");
    response.set_content(std::move(compressed), contentType);
}

}  // namespace svc
