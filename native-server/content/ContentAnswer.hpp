#pragma once
// The content answer, assembled in one place (ADR 0080): what GET /<apiId>/content returns for
// a page's widgets, and the presentation data GraphQL shares with it. The content comes from
// the tenant's snapshot (WidgetContentService, with the recorded lowest 30-day prices), the
// presentation from the operator's settings (texts by the page's language, the country's price
// rule; WidgetPresentation) and the image bot's facts (svc's thumbnails for large pictures, one
// picture per SIMILAR list). No database is read per answer: the snapshot and the image facts
// are in memory, the settings are cached.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.hpp"
#include "http/WidgetPresentation.hpp"
#include "imagebot/ImageBot.hpp"
#include "recommend/WidgetContentService.hpp"
#include "tenant/Tenant.hpp"
#include "widget/ContentPresentation.hpp"
#include "widget/WidgetContent.hpp"
#include "widget/WidgetSpec.hpp"

namespace svc {

class ContentAnswer {
public:
    // `imageBot` null: the bot is off, pictures are the feed's.
    ContentAnswer(RecommendationService& recommendations, WidgetPresentation& presentation, ImageBot* imageBot);

    // The widgets' content for a page: `hints` pick the texts' language; `base` is svc's origin
    // as the request sees it (thumbnail URLs start with it).
    Result<ContentResponse> answer(const Tenant& tenant, const std::vector<WidgetSpec>& widgets, const PageHints& hints,
                                   const std::string& base);
    // The presentation data of one request of a tenant, for GraphQL (which names no texts and
    // no 30-day prices: its schema has no such fields).
    std::unique_ptr<ContentPresentation> presentationFor(const Tenant& tenant, const std::string& base) const;

private:
    WidgetContentService widgets_;
    WidgetPresentation& presentation_;
    ImageBot* imageBot_;
};

}  // namespace svc
