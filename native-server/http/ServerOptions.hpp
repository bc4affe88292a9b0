#pragma once
// Everything `serve` configures (each a CLI11 option, docs/operations.md): the listener, its
// limits, the route classes' options and those of the long-lived services (app/Services).
#include <cstddef>
#include <optional>
#include <string>

#include "http/ConnectionLimits.hpp"
#include "http/EventRoutes.hpp"
#include "http/FeedRoutes.hpp"
#include "http/GraphqlRoutes.hpp"
#include "http/OperatorRoutes.hpp"
#include "http/PublicUrl.hpp"
#include "http/ShopRoutes.hpp"
#include "imagebot/ImageBot.hpp"
#include "net/TrustedProxies.hpp"
#include "recommend/ContentIndex.hpp"
#include "store/BlobStores.hpp"

namespace svc {

struct ServerOptions {
    std::string host = "127.0.0.1";
    int port = 8080;  // 0: any free port (tests)
    // The origin every URL svc hands out starts with (`serve --public-url`, docs/adr/0068); without
    // it, loopback Hosts are echoed and any other Host gets http://host:port of the listen address.
    // An https one also makes the console's session cookie Secure.
    std::optional<PublicUrl> publicUrl;
    std::string dataDir;
    // Blobs in a bucket every node shares instead of the data dir (`serve --blob-url`, docs/adr/0090).
    std::optional<S3BlobBucket> blobBucket;
    // The PostgreSQL database of a cluster (--database-url), when the stores are there: the node
    // LISTENs for what other nodes change (ADR 0091). Empty: the data dir's SQLite.
    std::string databaseUrl;
    std::string assetsDir;  // holds sdk/, loader/, web-demo/
    int threads = 64;  // workers for requests whose head has arrived (docs/adr/0057)
    ConnectionLimits connections;  // slow clients, idle keep-alive, per-address limits (docs/adr/0057)
    FeedRoutesOptions feeds;
    EventRoutesOptions events;
    ContentIndexOptions content;
    size_t maxRequestBytes = size_t{8} << 20;  // every route but the streaming feed routes
    ShopRoutesOptions shops;
    OperatorConsoleOptions console;  // the operator API and console (docs/adr/0039-0041)
    GraphqlRouteOptions graphql;
    // Peers whose X-Forwarded-For/-Proto, Forwarded and X-Request-Id are believed (docs/adr/0069).
    TrustedProxies trustedProxies;
    // The image bot (docs/adr/0038); off unless set (tests that do not test it fetch nothing).
    // Its dataDir defaults to dataDir.
    std::optional<ImageBotOptions> imageBot;
    // A listener of its own for /metrics (--metrics-listen; docs/adr/0065); metricsPort -1:
    // /metrics stays on the main listener. 0: any free port (tests).
    std::string metricsHost = "127.0.0.1";
    int metricsPort = -1;
};

}  // namespace svc
