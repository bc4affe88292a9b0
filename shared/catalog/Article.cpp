#include "catalog/Article.hpp"

#include <unordered_map>

namespace svc {

std::vector<Article> groupIntoArticles(std::vector<Product> products) {
    std::vector<Article> articles;
    std::unordered_map<std::string, size_t> indexByMainSku;
    for (auto& product : products) {
        auto [it, inserted] = indexByMainSku.try_emplace(product.mainSku, articles.size());
        if (inserted) articles.push_back(Article{product.mainSku, {}});
        articles[it->second].variants.push_back(std::move(product));
    }
    return articles;
}

}  // namespace svc
