#pragma once
// The built-in demo catalog of demo mode (docs/adr/0022): a fixed "complete the look"
// that SET-Compose widgets show before a shop's feed works. It lives in the SDK itself,
// so it needs no request and works for a tenant without a single product. Demo SKUs
// start with "svc-demo-": they are never in a feed and never reach a cart or an event.
#include <string>

#include "widget/WidgetContent.hpp"

namespace svc {

class DemoCatalog {
public:
    static constexpr const char* kSkuPrefix = "svc-demo-";
    static constexpr const char* kSetId = "svc-demo-look";
    // The demo look; images are the SDK's own files under `assetBase` (".../sdk"), served
    // from the SDK's host, so a page's image policy that admits the SDK admits them too.
    static WidgetContent look(const std::string& assetBase);
};

}  // namespace svc
