#include "http/GraphiqlPage.hpp"

#include "http/HttpErrors.hpp"
#include "http/ResponseCompression.hpp"

namespace svc {
namespace {

// GraphiQL's editors style themselves through the DOM's style properties, which style-src does
// not govern; everything else comes from this origin.
constexpr const char* kPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

}  // namespace

bool GraphiqlPage::wanted(const httplib::Request& request) {
    if (request.method != "GET" || request.has_param("query") || request.has_param("extensions")) return false;
    const std::string accept = request.get_header_value("Accept");
    return accept.find("text/html") != std::string::npos && accept.find("application/json") == std::string::npos &&
           accept.find("application/graphql-response+json") == std::string::npos;
}

void GraphiqlPage::servePage(const httplib::Request& request, httplib::Response& response) const {
    serveFile(request, "index.html", response);
}

void GraphiqlPage::registerOn(httplib::Server& server) const {
    server.Get("/graphiql/([^/]+)", [this](const httplib::Request& request, httplib::Response& response) {
        serveFile(request, request.matches[1], response);
    });
}

const StaticFiles& GraphiqlPage::files() const {
    std::call_once(loaded_, [this] { files_.emplace(StaticFiles::preloaded(root_)); });
    return *files_;
}

void GraphiqlPage::serveFile(const httplib::Request& request, const std::string& name, httplib::Response& response) const {
    auto file = files().read(name);
    if (!file) return sendError(response, Error::notFound("no such GraphiQL file: " + name));
    response.set_header("Content-Security-Policy", kPolicy);
    response.set_header("X-Content-Type-Options", "nosniff");
    response.set_header("Referrer-Policy", "same-origin");
    response.set_header("Cache-Control", "no-cache");
    response.set_header("Vary", "Accept");
    // graphiql.min.js is 3.4 MB: gzipped once when preloaded (9), sent so to every client that takes it.
    ResponseCompression::setBody(request, response, file->content, file->contentType, file->gzipped);
}

}  // namespace svc
