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

std::string WidgetRenderer::renderItem(const ContentItem& item) const {
    std::string name = escapeHtml(item.name);
    std::string url = escapeHtml(safeUrl(item.url));
    std::string html = "<li class=\"svc-card\" data-svc-sku=\"" + escapeHtml(item.sku) + "\">";
    html += "<a class=\"svc-card__link\" href=\"" + url + "\">";
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
    html += "</li>";
    return html;
}

std::string WidgetRenderer::render(const WidgetSpec& spec, const WidgetContent& content) const {
    if (content.items.empty()) return {};
    std::string heading = headingFor(spec.type);
    std::string html = "<section class=\"svc-widget svc-widget--" + modifierFor(spec.type) + "\" aria-label=\"" +
                       escapeHtml(heading) + "\"><ul class=\"svc-widget__list\">";
    for (const auto& item : content.items) html += renderItem(item);
    html += "</ul></section>";
    return html;
}

}  // namespace svc
