#pragma once
// An in-memory test double of the storage interface CatalogStore, for the services
// that read the catalog (recommendations, widget content, GraphQL).
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "store/CatalogStore.hpp"

namespace svc::testing {

class FakeCatalogStore : public CatalogStore {
public:
    std::map<int64_t, std::vector<Product>> products;  // per tenant, in insertion order
    std::optional<Error> failure;                      // every read fails with it when set
    std::vector<std::string> calls;                    // "articleVariants(1,A)", "availableInCategory(1,X,2000)"

    Result<std::unique_ptr<CatalogImport>> beginImport(int64_t, int64_t) override { return Error::internal("not supported by the fake"); }

    Result<std::vector<Product>> articleVariants(int64_t tenantId, const std::string& skuOrMainSku) override {
        calls.push_back("articleVariants(" + std::to_string(tenantId) + "," + skuOrMainSku + ")");
        if (failure) return *failure;
        std::string mainSku = skuOrMainSku;
        for (const auto& product : products[tenantId]) {
            if (product.sku == skuOrMainSku) mainSku = product.mainSku;
        }
        std::vector<Product> result;
        for (const auto& product : products[tenantId]) {
            if (product.mainSku == mainSku) result.push_back(product);
        }
        return result;
    }

    Result<std::vector<Product>> availableInCategory(int64_t tenantId, const std::string& categoryPath, size_t limit) override {
        calls.push_back("availableInCategory(" + std::to_string(tenantId) + "," + categoryPath + "," + std::to_string(limit) + ")");
        if (failure) return *failure;
        std::vector<Product> result;
        for (const auto& product : products[tenantId]) {
            if (result.size() >= limit) break;
            if (product.available() && product.primaryCategory() == categoryPath) result.push_back(product);
        }
        return result;
    }

    Result<CatalogStats> stats(int64_t tenantId) override {
        if (failure) return *failure;
        CatalogStats stats;
        for (const auto& product : products[tenantId]) {
            if (!product.deleted) ++stats.products;
            if (product.available()) ++stats.available;
        }
        return stats;
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
