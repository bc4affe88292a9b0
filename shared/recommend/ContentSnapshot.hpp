#pragma once
// Everything a tenant's content is answered from, computed ahead and immutable once
// built: articles with their profiles and availability, precomputed SIMILAR lists,
// the pools complementary sets are drawn from, custom and photo sets, and what was
// learned from purchases. Readers share one snapshot; a rebuild makes a new one and
// swaps it in, so queries never see a half-updated state (ContentSnapshotBuilder).
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "catalog/Article.hpp"
#include "core/Clock.hpp"
#include "recommend/ArticleProfile.hpp"
#include "recommend/CoPurchaseModel.hpp"
#include "recommend/FeatureSpace.hpp"
#include "sets/CustomSet.hpp"
#include "sets/SetTemplate.hpp"

namespace svc {

// Aligned to a cache line with the profile first, so the fields a SIMILAR score reads of
// each candidate (the profile's scalars, 60 bytes) lie in one line: a full build scores a
// billion pairs at a million SKUs, and a second cache miss per candidate cost it a quarter.
struct alignas(64) ArticleEntry {
    ArticleProfile profile;
    std::shared_ptr<const Article> article;  // live variants only; descriptions and properties but tags dropped
    uint64_t featureHash = 0;  // of what profiles are made of: a change means recomputing lists
    uint64_t contentHash = 0;  // of everything kept: a change means a new Article object
    bool live = false;         // listed (not deleted) in the catalog
    bool available = false;    // live and some variant buyable when built
    // When the article turns stale (absent from every feed for 24 hours, spec lifecycle)
    // unless a feed lists it again: checked at query time, as time passes without builds.
    int64_t availableUntil = INT64_MAX;
};

// A custom set with its SKUs resolved to articles (those not in the catalog dropped).
struct ResolvedCustomSet {
    CustomSet definition;
    std::vector<uint32_t> articles;
};

// One entry of a SIMILAR list; the score lets incremental builds insert newcomers in place.
struct Neighbour {
    uint32_t article = 0;
    float score = 0;
};

// Departments as indices of per-department lists (Department's values are 0..6).
constexpr size_t kDepartmentCount = 7;

// One template slot's candidates: live articles whose category path matches it, one list
// per department, each by likelihood of conversion (popularity), then a stable hash.
struct SlotPool {
    size_t templateIndex = 0;
    size_t slotIndex = 0;
    std::array<std::vector<uint32_t>, kDepartmentCount> byDepartment;
};

// A template with its words resolved to this snapshot's vocabulary once, at build time.
struct CompiledTemplate {
    std::vector<std::vector<uint32_t>> slotKeys;  // per slot: category keys known to the vocabulary
    std::vector<std::vector<ColorFamily>> slotColors;
    std::vector<uint32_t> occasions;  // known occasion ids
    bool occasionsGiven = false;      // the template names occasions (unknown ones match nothing)
    std::vector<Department> departments;
};

class ContentSnapshot {
public:
    static constexpr size_t kSimilarListLength = 100;

    size_t size() const { return articles_.size(); }
    const ArticleEntry& entry(uint32_t index) const { return articles_[index]; }
    // Live, buyable, and not stale by the clock the snapshot was built with (if any).
    bool available(uint32_t index) const { return availableAt(index, now()); }
    // The same at a moment read once per query (`now()`), for loops over many articles.
    bool availableAt(uint32_t index, int64_t now) const {
        const ArticleEntry& e = articles_[index];
        return e.available && (!clock_ || now < e.availableUntil);
    }
    int64_t now() const { return clock_ ? clock_->nowSeconds() : 0; }
    const FeatureSpace& space() const { return *space_; }
    const CoPurchaseModel& purchases() const { return *purchases_; }
    // The article a SKU or main SKU names, if live.
    std::optional<uint32_t> find(std::string_view skuOrMainSku) const;
    // The index of a main SKU, live or not (for incremental builds: indices stay stable).
    std::optional<uint32_t> indexOfMainSku(const std::string& mainSku) const;

    // Available articles that could replace the anchor, best first: never the anchor,
    // one colour per model while other models remain.
    std::vector<uint32_t> similar(uint32_t anchor, size_t limit) const;
    const std::vector<Neighbour>& similarList(uint32_t anchor) const {
        static const std::vector<Neighbour> none;
        return similar_[anchor] ? *similar_[anchor] : none;
    }

    const std::vector<SetTemplate>& templates() const { return *templates_; }
    const std::vector<SlotPool>& slotPools() const { return slotPools_; }
    const std::vector<CompiledTemplate>& compiledTemplates() const { return compiled_; }
    // Live articles of a kind.
    const std::vector<uint32_t>& kindMembers(uint32_t kind) const;
    // Kinds that appear together with `kind` in the tenant's custom sets, most often first.
    const std::vector<uint32_t>& customSetCompanions(uint32_t kind) const;

    const std::vector<ResolvedCustomSet>& customSets() const { return customSets_; }
    const ResolvedCustomSet* customSet(std::string_view id) const;
    // Custom sets that show the article, in definition order.
    std::vector<const ResolvedCustomSet*> customSetsWith(uint32_t article) const;
    const std::vector<PhotoSet>& photoSets() const { return *photoSets_; }

    // Counters for the operator and tests: how the snapshot was made.
    struct BuildInfo {
        bool full = true;
        size_t articles = 0;
        size_t recomputed = 0;  // articles whose profile and list were computed anew
        double seconds = 0;     // filled in by the host, which owns the clock
    };
    const BuildInfo& buildInfo() const { return info_; }
    void setBuildSeconds(double seconds) { info_.seconds = seconds; }

private:
    friend class ContentSnapshotBuilder;
    std::vector<ArticleEntry> articles_;
    // SKUs and main SKUs of live articles, and main SKUs of articles no longer live: shared
    // with the previous snapshot while no SKU comes or goes (most deltas change stock and prices).
    using SkuIndex = std::unordered_map<std::string, uint32_t>;
    std::shared_ptr<const SkuIndex> bySku_ = std::make_shared<SkuIndex>();
    std::shared_ptr<const SkuIndex> deletedIndex_ = std::make_shared<SkuIndex>();
    // Best first, at most kSimilarListLength (capacity too). Lists are shared with the previous
    // snapshot and copied only when an incremental build changes them: most lists of a
    // million-SKU catalog stay as they were after a delta.
    using NeighbourList = std::vector<Neighbour>;
    std::vector<std::shared_ptr<const NeighbourList>> similar_;
    std::unordered_map<uint32_t, std::vector<uint32_t>> kindMembers_;
    std::shared_ptr<FeatureSpace> space_;
    std::shared_ptr<const CoPurchaseModel> purchases_;
    std::shared_ptr<const std::vector<SetTemplate>> templates_;
    std::vector<SlotPool> slotPools_;
    std::vector<CompiledTemplate> compiled_;  // parallel to *templates_
    std::unordered_map<uint32_t, std::vector<uint32_t>> customCompanions_;
    std::vector<ResolvedCustomSet> customSets_;
    std::unordered_map<uint32_t, std::vector<uint32_t>> customSetsByArticle_;
    std::shared_ptr<const std::vector<PhotoSet>> photoSets_;
    BuildInfo info_;
    const Clock* clock_ = nullptr;
};

}  // namespace svc
