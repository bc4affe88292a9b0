#include "store/CatalogColumns.hpp"

namespace svc {

std::vector<const char*> CatalogColumns::of(FeedField field) {
    switch (field) {
        case FeedField::Sku: return {};
        case FeedField::MainSku: return {"main_sku"};
        case FeedField::Model: return {"model"};
        case FeedField::Stock: return {"stock"};
        case FeedField::Variant: return {"variant"};
        case FeedField::Name: return {"name"};
        case FeedField::RetailPrice: return {"retail_price"};
        case FeedField::DiscountPrice: return {"discount_price"};
        case FeedField::Deeplink: return {"deeplink"};
        case FeedField::Image: return {"image"};
        case FeedField::Thumbnail: return {"thumbnail"};
        case FeedField::CategoryPaths: return {"category_paths", "primary_category"};
        case FeedField::Brand: return {"brand"};
        case FeedField::Color: return {"color"};
        case FeedField::Description: return {"description"};
        case FeedField::LowestPrice30d: return {"lowest_price_30d"};
    }
    return {};
}

}  // namespace svc
