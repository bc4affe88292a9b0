#pragma once
// GraphiQL at GET /graphql for a browser that asks for HTML (docs/adr/0084): the page, its
// script and stylesheet, and React and GraphiQL copied from npm at build time (like the
// console's uPlot, docs/adr/0042), all served by svc under a strict CSP with no inline script.
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include <httplib.h>

#include "http/StaticFiles.hpp"

namespace svc {

class GraphiqlPage {
public:
    explicit GraphiqlPage(std::string assetsDir) : root_(std::move(assetsDir) + "/graphiql") {}

    // A browser's navigation: a GET that carries no GraphQL request and whose Accept names
    // text/html and neither JSON media type of GraphQL over HTTP.
    static bool wanted(const httplib::Request& request);

    void servePage(const httplib::Request& request, httplib::Response& response) const;
    // GET /graphiql/<file>: the page's script, stylesheet and libraries.
    void registerOn(httplib::Server& server) const;

private:
    void serveFile(const httplib::Request& request, const std::string& name, httplib::Response& response) const;
    // Read and gzipped on the first request, not at start: most servers never show the page,
    // and gzipping 3.4 MB of GraphiQL would slow every start (and every server test).
    const StaticFiles& files() const;
    std::string root_;
    mutable std::once_flag loaded_;
    mutable std::optional<StaticFiles> files_;
};

}  // namespace svc
