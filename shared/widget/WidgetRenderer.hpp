#pragma once
// Turns a widget's content into HTML. Every value from the feed and every text of the
// operator's bundle is escaped and every URL checked; no inline styles (a strict CSP
// forbids them), only classes that the SDK's stylesheet defines.
//
// A widget is a carousel in the WAI-ARIA pattern: a region (section with a label) with
// aria-roledescription "carousel" whose cards are labelled slides ("2 of 6") in a list
// that scrolls sideways (svc.css); Tab moves through the cards and scrolls them in.
//
// Interactive elements carry data-svc-action ("open", "cart", "alt") and sit inside
// an element with data-svc-pos (the position in the list); js/api.js forwards clicks on
// them to SdkController::handleAction. Parts that change later (a position's card
// after the shopper picks an alternative, the add-to-cart status) carry data-svc-part.
#include <string>

#include "money/MoneyFormatter.hpp"
#include "widget/WidgetTexts.hpp"
#include "widget/WidgetContent.hpp"
#include "widget/WidgetSpec.hpp"

namespace svc {

struct RenderOptions {
    // Only when the shop defines _svc_shop_plugin.addToCart: a button that cannot work is not shown.
    bool cartButtons = false;
};

class WidgetRenderer {
public:
    // The class of every widget's root element. svc.css and the operator's CSS match inside it
    // only (docs/adr/0029, docs/adr/0058); its modifiers are "svc-widget--<type>".
    static constexpr const char* kRootClass = "svc-widget";

    // Every visible text comes from `texts`: the tenant's bundle for the page's language,
    // delivered with the content (ContentResponse::texts).
    explicit WidgetRenderer(MoneyFormatter money, WidgetTexts texts = {}) : money_(std::move(money)), texts_(std::move(texts)) {}
    const WidgetTexts& texts() const { return texts_; }
    // Empty string when there is nothing to show: the caller hides the widget.
    std::string render(const WidgetSpec& spec, const WidgetContent& content, const RenderOptions& options = {}) const;
    // The inside of position `position`'s card part ("c<position>") showing `item`: with
    // cart buttons, also the button ("b<position>") and its status ("s<position>").
    std::string renderCardBody(const ContentItem& item, size_t position, const RenderOptions& options) const;

    // Names of the parts a controller updates. (Built by appending: `"c" + std::to_string(...)`
    // trips GCC 12's -Wrestrict false positive, bug 105329.)
    static std::string cardPart(size_t position) { return std::string("c").append(std::to_string(position)); }
    static std::string listPart() { return "list"; }  // the carousel's scrolling list of slides
    static std::string statusPart(size_t position) { return std::string("s").append(std::to_string(position)); }
    static std::string cartButtonPart(size_t position) { return std::string("b").append(std::to_string(position)); }
    static std::string positionPart(size_t position) { return std::string("p").append(std::to_string(position)); }
    static std::string alternativePart(size_t position, size_t choice) {
        return std::string("a").append(std::to_string(position)).append("-").append(std::to_string(choice));
    }

private:
    std::string renderPosition(const ContentItem& item, size_t position, size_t count, const RenderOptions& options) const;
    std::string renderSetPhoto(const WidgetContent& content) const;
    MoneyFormatter money_;
    WidgetTexts texts_;
};

// A position's choices: 0 is the item itself, i > 0 its alternative i - 1.
const ContentItem& choiceAt(const ContentItem& item, size_t choice);

}  // namespace svc
