#pragma once
// Widget events the SDK collects for attribution (view, click, add-to-cart) until the
// page is hidden, then hands over as bodies for POST {tracking_url}/events
// (docs/adr/0014): {"events": [...]} with at most kMaxEventsPerBody events each. Only
// what the server accepts is kept: SET-Compose (demo) is not tracked, and a value the
// server would refuse (empty, over 200 bytes, control characters) is left out, or the
// event dropped when the value is required, so one odd SKU never costs a whole batch.
#include <string>
#include <vector>

#include "tracking/TrackingEvent.hpp"
#include "widget/WidgetSpec.hpp"

namespace svc {

struct EventContext {
    std::string cid;
    std::string sid;
    std::string variant;    // the engine variant (_svc_cse_config)
    std::string testGroup;  // window._svc_shop_plugin.testgroup
};

class WidgetEventLog {
public:
    static constexpr size_t kMaxEventsPerBody = 100;  // the server's batch limit
    static constexpr size_t kMaxQueued = 1000;        // a page left open for days stays bounded
    // Beacons share a 64 KiB budget per page, the server takes 64 KiB per body.
    static constexpr size_t kMaxBodyBytes = 32 * 1024;

    // The view rule (issue 6): at least half of the widget is visible, or the visible part
    // of the widget covers at least half of the viewport (a widget taller than the screen).
    static bool isView(double visibleFractionOfWidget, double fractionOfViewportCovered) {
        return visibleFractionOfWidget >= 0.5 || fractionOfViewportCovered >= 0.5;
    }

    // Returns false when the event is not recorded (demo widget, unusable values, full).
    bool record(WidgetEventType type, const WidgetSpec& widget, const std::string& sku, const std::string& setId,
                const EventContext& context);
    // The queued events as request bodies, oldest first; the log is empty afterwards.
    std::vector<std::string> drain();
    size_t size() const { return events_.size(); }

    // What the server accepts as a text value (EventParser: 1-200 bytes, no control characters).
    static bool acceptableText(const std::string& text);

private:
    std::vector<std::string> events_;  // each one JSON object
};

}  // namespace svc
