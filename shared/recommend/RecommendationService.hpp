#pragma once
// The content every widget and GraphQL query returns, answered from the tenant's
// current ContentSnapshot (which a ContentSource keeps up to date).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.hpp"
#include "recommend/ComplementFinder.hpp"
#include "recommend/ContentSnapshot.hpp"

namespace svc {

class ContentSource {
public:
    virtual ~ContentSource() = default;
    // The tenant's current snapshot (built on first use).
    virtual Result<std::shared_ptr<const ContentSnapshot>> snapshot(int64_t tenantId) = 0;
};

// An article of one snapshot; keeps the snapshot alive while a query uses it.
struct ArticleRef {
    std::shared_ptr<const ContentSnapshot> snapshot;
    uint32_t index = 0;

    const ArticleEntry& entry() const { return snapshot->entry(index); }
    const Article& article() const { return *entry().article; }
    std::shared_ptr<const Article> shared() const { return entry().article; }
};

// One generated complementary set: the anchor's pick from each cluster.
struct GeneratedSet {
    std::string id;  // "<main SKU>#generated#<n>", as the predecessor named them
    std::vector<std::string> tags;
    std::vector<ArticleRef> products;
};

class RecommendationService {
public:
    explicit RecommendationService(ContentSource& content) : content_(content) {}

    // The live article named by a SKU or main SKU; nullopt when unknown or deleted.
    Result<std::optional<ArticleRef>> findArticle(int64_t tenantId, const std::string& skuOrMainSku);
    // Available articles similar to the anchor, best first.
    std::vector<ArticleRef> similarTo(const ArticleRef& anchor, size_t limit) const;
    std::vector<ComplementCluster> clusters(const ArticleRef& anchor, size_t maxClusters, size_t perCluster) const;
    // Up to `limit` sets built from the clusters: set n takes each cluster's n-th product
    // (or its last, when the cluster has fewer), so the first set is the best pick and later
    // ones offer the alternatives; sets end when no cluster has another product.
    std::vector<GeneratedSet> generatedSets(const ArticleRef& anchor, size_t limit) const;
    // The same from clusters already found for the anchor.
    static std::vector<GeneratedSet> generatedSets(const ArticleRef& anchor, const std::vector<ComplementCluster>& clusters, size_t limit);
    // SET's positions as one ranked list of `limit` articles (a "complete the look" row). Learned
    // positions are merged by the probability of each article being bought with the anchor
    // (its position's likelihood times its share within the position), so a likely position may
    // give several articles before an unlikely one gives its first; curated positions (cold
    // start) give their best in turn, then their second, ...
    static std::vector<uint32_t> rankedComplements(const std::vector<ComplementCluster>& clusters, size_t limit);
    // Custom sets showing the article that still have an available product.
    std::vector<const ResolvedCustomSet*> customSetsOf(const ArticleRef& anchor) const;
    Result<std::shared_ptr<const ContentSnapshot>> snapshot(int64_t tenantId) { return content_.snapshot(tenantId); }

    static constexpr size_t kClusterSize = 12;

private:
    ContentSource& content_;
};

// A custom set is shown while any of its products is available (the others get alternatives).
bool customSetShowable(const ContentSnapshot& snapshot, const ResolvedCustomSet& set);

}  // namespace svc
