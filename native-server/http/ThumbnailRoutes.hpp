#pragma once
// Thumbnails the image bot made (docs/adr/0038): GET /<apiId>/thumbs/<key>.jpg, where key is the
// SHA-256 of the source URL. A changed URL is a new key, so an answer never changes: cached for
// a year, immutable. A tenant reaches only its own thumbnails (looked up under its id). Also
// GET /imagebot, the page the bot's User-Agent points server operators to.
#include <httplib.h>

#include "imagebot/ImageBot.hpp"
#include "tenant/TenantService.hpp"

namespace svc {

class ThumbnailRoutes {
public:
    ThumbnailRoutes(TenantService& tenants, ImageBot& bot) : tenants_(tenants), bot_(bot) {}
    void registerOn(httplib::Server& server);
    static void serveInfoPage(httplib::Response& response);

private:
    void serveThumbnail(const httplib::Request& request, httplib::Response& response);

    TenantService& tenants_;
    ImageBot& bot_;
};

}  // namespace svc
