#include "widget/WidgetRenderer.hpp"

#include <initializer_list>
#include <string_view>

#include "text/HtmlEscape.hpp"

namespace svc {
namespace {

TextKey headingFor(WidgetType type) {
    switch (type) {
        case WidgetType::Similar: return TextKey::TitleSimilar;
        case WidgetType::Set: return TextKey::TitleSet;
        case WidgetType::SetCustom: return TextKey::TitleSetCustom;
        case WidgetType::SetCompose: return TextKey::TitleSetCompose;
    }
    return TextKey::TitleSimilar;
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

std::string WidgetRenderer::renderCardBody(const ContentItem& item, size_t position, const RenderOptions& options) const {
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
    // The 30-day lowest price belongs to a reduction only (the server sends it only where the
    // tenant's country requires it); without a crossed-out price there is no reduction.
    if (item.lowestPrice30Days && item.retailPrice && *item.retailPrice > item.price) {
        html += "<p class=\"svc-card__lowest\">" +
                escapeHtml(texts_.format(TextKey::LowestPrice30Days, {}, money_.format(*item.lowestPrice30Days))) + "</p>";
    }
    if (options.cartButtons) {
        // The visible text is the same on every card; the accessible name says which product,
        // and starts with the visible text (WCAG 2.5.3, label in name), whatever the operator wrote.
        std::string label = escapeHtml(texts_.get(TextKey::AddToCart));
        html += "<button type=\"button\" class=\"svc-card__cart\" data-svc-action=\"cart\" data-svc-part=\"" + cartButtonPart(position) +
                "\" aria-label=\"" + label + ": " + name + "\">" + label + "</button>";
        // A live region: the outcome of add-to-cart is announced without moving focus. Part of the
        // card so that buttons that arrive later (a deferred shop plugin) bring theirs along.
        html += "<p class=\"svc-card__status\" role=\"status\" data-svc-part=\"" + statusPart(position) + "\"></p>";
    }
    return html;
}

std::string WidgetRenderer::renderPosition(const ContentItem& item, size_t position, size_t count,
                                           const RenderOptions& options) const {
    // Appended piece by piece: long `"literal" + std::string` chains trip GCC 12's -Wrestrict
    // false positive (GCC bug 105329) and copy more.
    std::string html;
    auto add = [&html](std::initializer_list<std::string_view> pieces) {
        for (std::string_view piece : pieces) html += piece;
    };
    // A slide of the carousel, labelled by its place ("2 of 6"); it stays a list item.
    add({"<li class=\"svc-card\" data-svc-pos=\"", std::to_string(position), "\" data-svc-part=\"", positionPart(position),
         "\" data-svc-sku=\"", escapeHtml(item.sku), "\" aria-roledescription=\"", escapeHtml(texts_.get(TextKey::Slide)),
         "\" aria-label=\"", escapeHtml(texts_.format(TextKey::SlideOf, {}, {}, std::to_string(position + 1), std::to_string(count))),
         "\">"});
    add({"<div class=\"svc-card__body\" data-svc-part=\"", cardPart(position), "\">", renderCardBody(item, position, options), "</div>"});
    if (!item.alternatives.empty()) {
        // Toggle buttons, one per choice: reachable by Tab, pressed state announced.
        add({"<div class=\"svc-card__choices\" role=\"group\" aria-label=\"", escapeHtml(texts_.format(TextKey::AlternativesFor, item.name)),
             "\">"});
        for (size_t choice = 0; choice <= item.alternatives.size(); ++choice) {
            const ContentItem& shown = choiceAt(item, choice);
            add({"<button type=\"button\" class=\"svc-card__choice\" data-svc-action=\"alt\" data-svc-alt=\"", std::to_string(choice),
                 "\" data-svc-part=\"", alternativePart(position, choice), "\" aria-pressed=\"", choice == 0 ? "true" : "false", "\">",
                 escapeHtml(shown.name), "</button>"});
        }
        html += "</div>";
    }
    html += "</li>";
    return html;
}

// A custom set is its photo (a model or mood photo) with the products seen in it: the photo and
// the set's title come first. The description says what the photo shows, so it is the alt text;
// without one the title names the photo.
std::string WidgetRenderer::renderSetPhoto(const WidgetContent& content) const {
    std::string image = safeUrl(content.image);
    if (image.empty() && content.title.empty()) return {};
    std::string html = "<figure class=\"svc-widget__look\">";
    if (!image.empty()) {
        const std::string& alt = content.description.empty() ? content.title : content.description;
        html += "<img class=\"svc-widget__photo\" src=\"" + escapeHtml(image) + "\" alt=\"" + escapeHtml(alt) +
                "\" decoding=\"async\" width=\"480\" height=\"640\">";
    }
    if (!content.title.empty()) html += "<figcaption class=\"svc-widget__title\">" + escapeHtml(content.title) + "</figcaption>";
    return html + "</figure>";
}

std::string WidgetRenderer::render(const WidgetSpec& spec, const WidgetContent& content, const RenderOptions& options) const {
    if (content.items.empty()) return {};
    const std::string& heading = texts_.get(headingFor(spec.type));
    std::string html = std::string("<section class=\"") + kRootClass + " " + kRootClass + "--" + modifierFor(spec.type) + "\" aria-label=\"" +
                       escapeHtml(heading) + "\" aria-roledescription=\"" + escapeHtml(texts_.get(TextKey::Carousel)) + "\">";
    // WAI-ARIA carousel: previous/next controls before the slides, named by the texts. They
    // scroll the list (SdkController: "prev", "next"); one card needs none.
    if (content.items.size() > 1) {
        html += "<div class=\"svc-widget__controls\"><button type=\"button\" class=\"svc-widget__prev\" data-svc-action=\"prev\" "
                "aria-label=\"" + escapeHtml(texts_.get(TextKey::PreviousSlides)) + "\">\u2039</button>"
                "<button type=\"button\" class=\"svc-widget__next\" data-svc-action=\"next\" aria-label=\"" +
                escapeHtml(texts_.get(TextKey::NextSlides)) + "\">\u203a</button></div>";
    }
    if (spec.type == WidgetType::SetCustom) html += renderSetPhoto(content);
    html += "<ul class=\"svc-widget__list\" data-svc-part=\"" + listPart() + "\">";
    for (size_t position = 0; position < content.items.size(); ++position) {
        html += renderPosition(content.items[position], position, content.items.size(), options);
    }
    html += "</ul></section>";
    return html;
}

}  // namespace svc
