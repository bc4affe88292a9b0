#include "sdk/DemoCatalog.hpp"

namespace svc {
namespace {

struct DemoProduct {
    const char* id;  // also the image's name: demo-<id>.svg
    const char* name;
    const char* brand;
    int64_t price;
    int64_t retailPrice;  // 0: none
};

// Positions of the look, each with its alternatives: enough to show every part of a
// SET card (crossed-out price, alternatives) without a catalog.
constexpr DemoProduct kPositions[][3] = {
    {{"shirt", "Linen shirt", "Demo Basics", 4990, 0},
     {"shirt-blue", "Linen shirt, blue", "Demo Basics", 4990, 0},
     {"tee", "Organic cotton tee", "Demo Basics", 1990, 2490}},
    {{"chinos", "Slim chinos", "Demo Denim", 6990, 8990},
     {"jeans", "Straight jeans", "Demo Denim", 7990, 0},
     {"shorts", "Chino shorts", "Demo Denim", 3990, 0}},
    {{"sneakers", "Canvas sneakers", "Demo Steps", 5990, 0},
     {"loafers", "Suede loafers", "Demo Steps", 8990, 11990},
     {nullptr, nullptr, nullptr, 0, 0}},
    {{"bag", "Leather tote", "Demo Carry", 12990, 0},
     {"backpack", "Canvas backpack", "Demo Carry", 6990, 0},
     {nullptr, nullptr, nullptr, 0, 0}},
};

ContentItem itemOf(const DemoProduct& product, const std::string& assetBase) {
    ContentItem item;
    item.sku = std::string(DemoCatalog::kSkuPrefix) + product.id;
    item.mainSku = item.sku;
    item.name = product.name;
    item.brand = product.brand;
    // Demo products have no page: a fragment keeps a click on the shop's page.
    item.url = "#" + item.sku;
    item.image = assetBase + "/demo-" + product.id + ".svg";
    item.price = product.price;
    if (product.retailPrice > 0) item.retailPrice = product.retailPrice;
    return item;
}

}  // namespace

WidgetContent DemoCatalog::look(const std::string& assetBase) {
    WidgetContent content;
    content.setId = kSetId;
    for (const auto& position : kPositions) {
        ContentItem item = itemOf(position[0], assetBase);
        for (size_t i = 1; i < 3 && position[i].id; ++i) item.alternatives.push_back(itemOf(position[i], assetBase));
        content.items.push_back(std::move(item));
    }
    return content;
}

}  // namespace svc
