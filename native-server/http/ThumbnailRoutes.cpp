#include "http/ThumbnailRoutes.hpp"

#include "http/HttpErrors.hpp"

namespace svc {

void ThumbnailRoutes::registerOn(httplib::Server& server) {
    server.Get("/([A-Za-z0-9-]{1,64})/thumbs/([^/]+)\\.jpg",
               [this](const httplib::Request& request, httplib::Response& response) { serveThumbnail(request, response); });
}

void ThumbnailRoutes::serveThumbnail(const httplib::Request& request, httplib::Response& response) {
    std::string key = request.matches[2];
    if (!ImageBot::validThumbKey(key)) return sendError(response, Error::notFound("thumbnail key: not 64 lower-case hex digits"));
    auto tenant = tenants_.findByApiId(request.matches[1]);
    if (!tenant) return sendError(response, tenant.error());
    // A disabled tenant is unknown to every public endpoint (issue 18).
    if (!*tenant || (*tenant)->disabled) return sendError(response, Error::notFound("unknown API ID"));
    auto facts = bot_.facts().findByThumbKey((*tenant)->id, key);
    if (!facts) return sendError(response, facts.error());
    if (!*facts || !(*facts)->ok()) return sendError(response, Error::notFound("no thumbnail " + key));
    // The source's content hash: the same key always names the same bytes (the bot fetches a URL once).
    std::string etag(1, '"');
    etag.append((*facts)->contentSha256, 0, 32).push_back('"');
    response.set_header("Cache-Control", "public, max-age=31536000, immutable");
    response.set_header("ETag", etag);
    if (request.get_header_value("If-None-Match") == etag) {
        response.status = 304;
        return;
    }
    auto jpeg = bot_.readThumbnail((*tenant)->id, key);
    if (!jpeg || !*jpeg) {
        response.headers.erase("Cache-Control");
        return sendError(response, jpeg ? Error::notFound("no thumbnail " + key) : jpeg.error());
    }
    response.set_content(**jpeg, "image/jpeg");
}

void ThumbnailRoutes::serveInfoPage(httplib::Response& response) {
    response.set_header("Cache-Control", "public, max-age=86400");
    response.set_content(R"(<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>svc-imagebot</title></head>
<body>
<h1>svc-imagebot</h1>
<p>svc-imagebot fetches the product images that shops list in their product feeds for this
recommendation service, once per image address, to make thumbnails and to compare images.</p>
<p>It sends at most a few requests at a time to one host, waits as long as a 429 or 503 answer's
Retry-After asks, and fetches an address again only when the shop's feed names a new one.</p>
<p>To stop it, remove the image addresses from the feed given to this service, or answer 403.</p>
</body></html>
)", "text/html; charset=utf-8");
}

}  // namespace svc
