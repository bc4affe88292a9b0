#pragma once
// A ContentSource over products held in memory, for the services that answer from
// content snapshots (recommendations, widget content, GraphQL): each snapshot() builds
// the tenant's snapshot with the real ContentSnapshotBuilder, so these tests exercise
// the engine, not a double of it.
#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "recommend/ContentSnapshotBuilder.hpp"
#include "recommend/RecommendationService.hpp"

namespace svc::testing {

class ProductContentSource : public ContentSource {
public:
    std::map<int64_t, std::vector<Product>> products;  // per tenant; deleted ones are left out as the store does
    std::vector<SetTemplate> templates;
    std::vector<CustomSet> customSets;
    std::vector<PhotoSet> photoSets;
    std::vector<std::vector<std::string>> orders;
    std::optional<Error> failure;    // every snapshot() fails with it when set
    std::vector<std::string> calls;  // "snapshot(1)"

    Result<std::shared_ptr<const ContentSnapshot>> snapshot(int64_t tenantId) override {
        calls.push_back("snapshot(" + std::to_string(tenantId) + ")");
        if (failure) return *failure;
        return build(tenantId, nullptr);
    }

    // A snapshot built from `previous` (incremental) or from scratch.
    std::shared_ptr<const ContentSnapshot> build(int64_t tenantId, std::shared_ptr<const ContentSnapshot> previous) const {
        std::vector<Product> live;
        auto found = products.find(tenantId);
        if (found != products.end()) {
            for (const auto& product : found->second) {
                if (!product.deleted) live.push_back(product);
            }
        }
        std::stable_sort(live.begin(), live.end(), [](const Product& a, const Product& b) {
            return a.mainSku != b.mainSku ? a.mainSku < b.mainSku : a.sku < b.sku;
        });
        ContentSnapshotBuilder builder(std::move(previous));
        for (auto& product : live) builder.add(std::move(product));
        ContentInputs inputs;
        inputs.templates = std::make_shared<const std::vector<SetTemplate>>(templates);
        inputs.customSets = customSets;
        inputs.photoSets = std::make_shared<const std::vector<PhotoSet>>(photoSets);
        inputs.orders = orders;
        return builder.build(inputs);
    }
};

inline Product makeProduct(std::string sku, std::string mainSku, std::string category, std::optional<int64_t> price,
                           int64_t stock = 1) {
    Product product;
    product.sku = std::move(sku);
    product.mainSku = std::move(mainSku);
    product.name = "Name of " + product.mainSku;
    product.deeplink = "https://shop.example/" + product.mainSku;
    product.image = "https://cdn.example/" + product.mainSku + ".jpg";
    if (!category.empty()) product.categoryPaths = {std::move(category)};
    product.discountPrice = price;
    product.stock = stock;
    return product;
}

}  // namespace svc::testing
