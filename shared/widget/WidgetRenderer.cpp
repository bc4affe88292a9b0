#include "widget/WidgetRenderer.hpp"

#include "text/HtmlEscape.hpp"

namespace svc {
namespace {

std::string headingFor(WidgetType type) {
    switch (type) {
        case WidgetType::Similar: return "Similar products";
        case WidgetType::Set: return "Complete the look";
        case WidgetType::SetCustom: return "Shop the look";
        case WidgetType::SetCompose: return "Complete the look";
    }
    return "Recommendations";
}

std::string modifierFor(WidgetType type) {
    switch (type) {
        case WidgetType::Similar: return "similar";
        case WidgetType::Set: return "set";
        case WidgetType::SetCustom: return "set-custom";
        case WidgetType::SetCompose: return "set-compose";
    }
    return "similar";
}

}  // namespace

const ContentItem& choiceAt(const ContentItem& item, size_t choice) {
    return choice == 0 || choice > item.alternatives.size() ? item : item.alternatives[choice - 1];
}

std::string WidgetRenderer::renderCardBody(const ContentItem& item, const RenderOptions& options) const {
    std::string name = escapeHtml(item.name);
    std::string url = escapeHtml(safeUrl(item.url));
    std::string html = "<a class=\"svc-card__link\" href=\"" + url + "\" data-svc-action=\"open\">";
    std::string image = safeUrl(item.image);
    if (!image.empty()) {
        // Width and height reserve the space before the image arrives: no layout shift.
        html += "<img class=\"svc-card__image\" src=\"" + escapeHtml(image) + "\" alt=\"" + name +
                "\" loading=\"lazy\" decoding=\"async\" width=\"240\" height=\"320\">";
    }
    if (!item.brand.empty()) html += "<span class=\"svc-card__brand\">" + escapeHtml(item.brand) + "</span>";
    html += "<span class=\"svc-card__name\">" + name + "</span></a>";
    html += "<p class=\"svc-card__price\">";
    if (item.retailPrice && *item.retailPrice > item.price) {
        html += "<s class=\"svc-card__retail\">" + escapeHtml(money_.format(*item.retailPrice)) + "</s> ";
    }
    html += "<span class=\"svc-card__selling\">" + escapeHtml(money_.format(item.price)) + "</span></p>";
    if (options.cartButtons) {
        // The visible text is the same on every card; the accessible name says which product.
        html += "<button type=\"button\" class=\"svc-card__cart\" data-svc-action=\"cart\" aria-label=\"" +
                std::string(kAddToCart) + ": " + name + "\">" + kAddToCart + "</button>";
    }
    return html;
}

std::string WidgetRenderer::renderPosition(const ContentItem& item, size_t position, const RenderOptions& options) const {
    std::string index = std::to_string(position);
    std::string html = "<li class=\"svc-card\" data-svc-pos=\"" + index + "\" data-svc-part=\"" + positionPart(position) +
                       "\" data-svc-sku=\"" + escapeHtml(item.sku) + "\">";
    html += "<div class=\"svc-card__body\" data-svc-part=\"" + cardPart(position) + "\">" + renderCardBody(item, options) +
            "</div>";
    if (options.cartButtons) {
        // A live region: the outcome of add-to-cart is announced without moving focus.
        html += "<p class=\"svc-card__status\" role=\"status\" data-svc-part=\"" + statusPart(position) + "\"></p>";
    }
    if (!item.alternatives.empty()) {
        // Toggle buttons, one per choice: reachable by Tab, pressed state announced.
        html += "<div class=\"svc-card__choices\" role=\"group\" aria-label=\"Alternatives for " + escapeHtml(item.name) +
                "\">";
        for (size_t choice = 0; choice <= item.alternatives.size(); ++choice) {
            const ContentItem& shown = choiceAt(item, choice);
            html += "<button type=\"button\" class=\"svc-card__choice\" data-svc-action=\"alt\" data-svc-alt=\"" +
                    std::to_string(choice) + "\" data-svc-part=\"" + alternativePart(position, choice) +
                    "\" aria-pressed=\"" + (choice == 0 ? "true" : "false") + "\">" + escapeHtml(shown.name) + "</button>";
        }
        html += "</div>";
    }
    html += "</li>";
    return html;
}

std::string WidgetRenderer::render(const WidgetSpec& spec, const WidgetContent& content, const RenderOptions& options) const {
    if (content.items.empty()) return {};
    std::string heading = headingFor(spec.type);
    std::string html = "<section class=\"svc-widget svc-widget--" + modifierFor(spec.type) + "\" aria-label=\"" +
                       escapeHtml(heading) + "\"><ul class=\"svc-widget__list\">";
    for (size_t position = 0; position < content.items.size(); ++position) {
        html += renderPosition(content.items[position], position, options);
    }
    html += "</ul></section>";
    return html;
}

}  // namespace svc
