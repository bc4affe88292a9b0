#pragma once
// Turns a widget's content into HTML. Every value from the feed is escaped and
// every URL checked; no inline styles (a strict CSP forbids them), only classes
// that the SDK's stylesheet defines.
#include <string>

#include "money/MoneyFormatter.hpp"
#include "widget/WidgetContent.hpp"
#include "widget/WidgetSpec.hpp"

namespace svc {

class WidgetRenderer {
public:
    explicit WidgetRenderer(MoneyFormatter money) : money_(std::move(money)) {}
    // Empty string when there is nothing to show: the caller hides the widget.
    std::string render(const WidgetSpec& spec, const WidgetContent& content) const;

private:
    std::string renderItem(const ContentItem& item) const;
    MoneyFormatter money_;
};

}  // namespace svc
