#pragma once
// The SDK's logic: claims widgets on the page, asks for their content in one
// request, renders or hides them. I/O stays outside: the JS layer performs the
// request and hands the response back.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sdk/Dom.hpp"
#include "widget/WidgetSpec.hpp"

namespace svc {

struct ContentBatch {
    int id = 0;             // 0: nothing to fetch
    std::string query;      // query string for GET {base}/{apiId}/content?...
};

class SdkController {
public:
    explicit SdkController(Dom& dom) : dom_(dom) {}

    // Claims new widgets. Invalid ones are hidden with one warning naming the attribute.
    ContentBatch scan();
    // Fills the batch's widgets from the content response; widgets without items are hidden.
    void applyContent(int batchId, const std::string& responseText);
    // The request failed (network, HTTP status, timeout): hide the batch, warn once per cause.
    void failBatch(int batchId, const std::string& cause);

    // A new visual variant (colour, pattern): widgets of that type show content for `sku`.
    // Returns the batch to fetch; warns and does nothing for an unknown type or empty SKU.
    ContentBatch updateWidgetSku(const std::string& widgetType, const std::string& sku);

    size_t pendingWidgetCount() const;

private:
    void warnOnce(const std::string& message);
    void finish(NodeId node, const char* state);

    Dom& dom_;
    int nextBatchId_ = 1;
    struct PendingWidget {
        NodeId node;
        WidgetSpec spec;
        // Taken over by a later request (updateWidgetSku); its answer here is ignored, but
        // the entry stays so that response positions keep matching the other widgets.
        bool superseded = false;
    };
    std::map<int, std::vector<PendingWidget>> batches_;
    std::set<std::string> warned_;
};

}  // namespace svc
