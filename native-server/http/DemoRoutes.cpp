#include "http/DemoRoutes.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "http/HttpErrors.hpp"
#include "http/ResponseCompression.hpp"
#include "http/StaticFiles.hpp"
#include "text/BoundedJson.hpp"

namespace svc {
namespace {

std::string readFile(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    std::ostringstream content;
    content << file.rdbuf();
    return content.str();
}

}  // namespace

void DemoRoutes::registerOn(httplib::Server& server) {
    server.Get("/demo", [](const httplib::Request&, httplib::Response& response) { response.set_redirect("/demo/"); });
    server.Get("/demo/(.*)", [this](const httplib::Request& request, httplib::Response& response) { serve(request, response); });
}

void DemoRoutes::serve(const httplib::Request& request, httplib::Response& response) {
    std::string path = request.matches[1];
    if (path.empty()) path = "index.html";
    std::filesystem::path demoData = std::filesystem::path(dataDir_) / "demo";
    bool generated = path == "shop.json" || path.rfind("images/", 0) == 0;
    auto file = StaticFiles(generated ? demoData.string() : assetsDir_ + "/web-demo").read(path);
    if (!file) return sendError(response, Error::notFound("no such demo page"));
    if (path.size() > 5 && path.compare(path.size() - 5, 5, ".html") == 0) {
        // The demo shop embeds the loader snippet for the demo tenant, like a real shop would.
        auto tenantFile = BoundedJson::parse(readFile(demoData / "tenant.json"), "tenant.json");
        std::string apiId = tenantFile && tenantFile->is_object() ? tenantFile->value("apiId", "") : "";
        bool wellFormed = !apiId.empty() && apiId.find_first_not_of("0123456789abcdefABCDEF-") == std::string::npos;
        if (!wellFormed) return sendError(response, Error::notFound("no demo tenant: run `svc-server demo setup` first"));
        StaticFiles::substitute(file->content, "__SVC_API_ID__", apiId);
        StaticFiles::substitute(file->content, "__SVC_SDK_URL__", baseUrl_(request));
    }
    response.set_header("Cache-Control", generated ? "public, max-age=86400" : "no-cache");
    ResponseCompression::setBody(request, response, file->content, file->contentType);
}

}  // namespace svc
