#include "content/ContentAnswer.hpp"

#include <functional>

#include "image/PerceptualHash.hpp"

namespace svc {

namespace {

// The image bot's facts for one tenant, URLs under svc's origin as the request sees it.
class ImageFactsPresentation : public ContentPresentation {
public:
    ImageFactsPresentation(ImageBot* bot, const Tenant& tenant, const std::string& base)
        : bot_(bot), tenantId_(tenant.id), thumbs_(base + "/" + tenant.apiId + "/thumbs/") {}

    std::string shownPicture(const std::string& image, const std::string& thumbnail) const override {
        const std::string& picture = thumbnail.empty() ? image : thumbnail;
        if (!bot_) return picture;
        if (auto visual = bot_->visualFor(tenantId_, picture); visual && visual->replacementKey) return thumbs_ + *visual->replacementKey + ".jpg";
        return picture;
    }
    std::optional<uint64_t> pictureHash(const std::string& picture) const {
        if (!bot_) return std::nullopt;
        auto visual = bot_->visualFor(tenantId_, picture);
        return visual ? std::optional<uint64_t>(visual->phash) : std::nullopt;
    }

private:
    ImageBot* bot_;
    int64_t tenantId_;
    std::string thumbs_;
};

// Shops list one photo under several products: a SIMILAR list shows each picture once (ADR 0038).
void keepFirstOfEachPicture(const ImageFactsPresentation& facts, std::vector<ContentItem>& items) {
    std::vector<std::optional<uint64_t>> hashes;
    hashes.reserve(items.size());
    for (const auto& item : items) hashes.push_back(facts.pictureHash(item.image));
    auto keep = PerceptualHash::firstOfEachPicture(hashes);
    size_t kept = 0;
    for (size_t i = 0; i < items.size(); ++i) {
        if (!keep[i]) continue;
        if (kept != i) items[kept] = std::move(items[i]);
        ++kept;
    }
    items.resize(kept);
}

}  // namespace

ContentAnswer::ContentAnswer(RecommendationService& recommendations, WidgetPresentation& presentation, ImageBot* imageBot)
    : widgets_(recommendations), presentation_(presentation), imageBot_(imageBot) {}

Result<ContentResponse> ContentAnswer::answer(const Tenant& tenant, const std::vector<WidgetSpec>& widgets, const PageHints& hints,
                                              const std::string& base) {
    auto content = widgets_.contentFor(tenant, widgets);
    if (!content) return content.error();
    if (auto decorated = presentation_.decorate(tenant, hints, *content); !decorated) return decorated.error();
    if (!imageBot_) return content;
    // contentItemOf put the feed's thumbnail (else its image) into `image`: the picture shown.
    ImageFactsPresentation facts(imageBot_, tenant, base);
    std::function<void(ContentItem&)> showPicture = [&](ContentItem& item) {
        item.image = facts.shownPicture(item.image, "");
        for (auto& alternative : item.alternatives) showPicture(alternative);
    };
    for (size_t w = 0; w < content->widgets.size(); ++w) {
        auto& items = content->widgets[w].items;
        if (w < widgets.size() && widgets[w].type == WidgetType::Similar) keepFirstOfEachPicture(facts, items);
        for (auto& item : items) showPicture(item);
    }
    return content;
}

std::unique_ptr<ContentPresentation> ContentAnswer::presentationFor(const Tenant& tenant, const std::string& base) const {
    return std::make_unique<ImageFactsPresentation>(imageBot_, tenant, base);
}

}  // namespace svc
