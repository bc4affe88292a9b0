#include "recommend/ContentSnapshotBuilder.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_set>

#include "catalog/Availability.hpp"
#include "recommend/SimilarityScorer.hpp"
#include "recommend/TextTokenizer.hpp"

namespace svc {
namespace {

// Beyond this many articles of one kind a list is computed against an evenly spaced
// sample of them, so a single huge category cannot make builds quadratic.
constexpr size_t kMaxComparisonsPerArticle = 20000;

struct Hasher {
    uint64_t value = 1469598103934665603ull;  // FNV-1a
    void add(std::string_view text) {
        for (unsigned char c : text) value = (value ^ c) * 1099511628211ull;
        value = (value ^ 0xff) * 1099511628211ull;  // separator: "ab","c" differs from "a","bc"
    }
    void add(int64_t number) { add(std::string_view(reinterpret_cast<const char*>(&number), sizeof number)); }
};

uint64_t featureHashOf(const Product& product) {
    Hasher hash;
    for (auto text : {&product.name, &product.description, &product.color, &product.brand, &product.model}) hash.add(*text);
    for (const auto& path : product.categoryPaths) hash.add(path);
    for (const auto& [name, value] : product.properties) {
        hash.add(name);
        hash.add(value);
    }
    // The price band (steps of 20%), not the price: a small price change keeps the lists.
    auto price = product.sellingPrice().value_or(0);
    hash.add(price > 0 ? static_cast<int64_t>(std::floor(std::log(static_cast<double>(price)) / std::log(1.2))) : -1);
    return hash.value;
}

uint64_t contentHashOf(const std::vector<Product>& variants) {
    Hasher hash;
    for (const auto& v : variants) {
        for (auto text : {&v.sku, &v.variant, &v.name, &v.deeplink, &v.image, &v.thumbnail, &v.brand, &v.model, &v.color}) hash.add(*text);
        hash.add(v.stock);
        hash.add(v.retailPrice.value_or(-1));
        hash.add(v.discountPrice.value_or(-1));
        hash.add(v.lowestPrice30d.value_or(-1));
        hash.add(v.stale ? 1 : 0);
        auto tags = v.properties.find("tags");
        hash.add(tags == v.properties.end() ? std::string_view("\x01") : std::string_view(tags->second));
    }
    return hash.value;
}

// What output needs of a variant: descriptions and properties (but tags) are kept
// only in the profile, which keeps a million-SKU catalog in memory affordable.
Product slim(Product product) {
    product.description.clear();
    product.description.shrink_to_fit();
    std::map<std::string, std::string> kept;
    auto tags = product.properties.find("tags");
    if (tags != product.properties.end()) kept.emplace("tags", std::move(tags->second));
    product.properties = std::move(kept);
    return product;
}

uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

bool better(const Neighbour& a, const Neighbour& b) {
    return a.score != b.score ? a.score > b.score : a.article < b.article;
}

void insertNeighbour(std::vector<Neighbour>& list, Neighbour neighbour) {
    if (list.size() >= ContentSnapshot::kSimilarListLength && !better(neighbour, list.back())) return;
    list.insert(std::upper_bound(list.begin(), list.end(), neighbour, better), neighbour);
    if (list.size() > ContentSnapshot::kSimilarListLength) list.pop_back();
}

}  // namespace

ContentSnapshotBuilder::ContentSnapshotBuilder(std::shared_ptr<const ContentSnapshot> previous, ParallelFor parallel)
    : previous_(std::move(previous)), parallel_(std::move(parallel)) {
    if (!parallel_) {
        parallel_ = [](size_t count, const std::function<void(size_t)>& work) {
            for (size_t i = 0; i < count; ++i) work(i);
        };
    }
}

void ContentSnapshotBuilder::add(Product product) {
    if (!current_.empty() && current_.front().mainSku != product.mainSku) finishArticle();
    current_.push_back(std::move(product));
}

void ContentSnapshotBuilder::finishArticle() {
    if (current_.empty()) return;
    // Variants in SKU order, whatever order the source reads them in: the first speaks for
    // the article's features, so the order must not change between builds.
    std::sort(current_.begin(), current_.end(), [](const Product& a, const Product& b) { return a.sku < b.sku; });
    Read read;
    read.featureHash = featureHashOf(current_.front());
    // The last moment a buyable variant counts as seen (lastSeenAt 0: no feed time known),
    // from the variants just read: a reused Article object keeps older lastSeenAt values.
    int64_t until = 0;
    for (const auto& variant : current_) {
        if (variant.deleted || variant.stock <= 0) continue;
        until = std::max(until, variant.lastSeenAt == 0 ? INT64_MAX : variant.lastSeenAt + kAbsentAfterSeconds + 1);
    }
    read.availableUntil = until;
    read.contentHash = contentHashOf(current_);
    bool needsProfile = true;
    if (previous_) {
        if (auto index = previous_->indexOfMainSku(current_.front().mainSku)) {
            const ArticleEntry& before = previous_->entry(*index);
            needsProfile = before.featureHash != read.featureHash;
            if (before.contentHash == read.contentHash) read.article = before.article;
        }
    }
    if (needsProfile) read.source = std::make_unique<Product>(current_.front());
    if (!read.article) {
        auto article = std::make_shared<Article>();
        article->mainSku = current_.front().mainSku;
        for (auto& variant : current_) article->variants.push_back(slim(std::move(variant)));
        read.article = std::move(article);
    }
    read.available = read.article->available();
    read_.push_back(std::move(read));
    current_.clear();
}

std::shared_ptr<ContentSnapshot> ContentSnapshotBuilder::build(const ContentInputs& inputs) {
    finishArticle();
    auto snapshot = std::make_shared<ContentSnapshot>();
    ContentSnapshot& next = *snapshot;
    std::vector<uint32_t> dirty;     // articles whose profile and list are computed now
    std::vector<uint32_t> oldKinds;  // their kind before (0 for new articles), parallel to dirty

    if (previous_) {
        // Indices stay stable across incremental builds: lists of other articles keep pointing right.
        next.articles_ = previous_->articles_;
        next.similar_ = previous_->similar_;
        for (auto& entry : next.articles_) entry.live = entry.available = false;
        next.space_ = previous_->space_;
    } else {
        next.space_ = std::make_shared<FeatureSpace>();
        std::vector<const Product*> representatives;
        representatives.reserve(read_.size());
        for (const auto& read : read_) representatives.push_back(read.source.get());
        next.space_->train(representatives);
    }
    bool spaceCopied = !previous_;
    for (auto& read : read_) {
        const std::string& mainSku = read.article->mainSku;
        uint32_t index;
        std::optional<uint32_t> before = previous_ ? previous_->indexOfMainSku(mainSku) : std::nullopt;
        if (before) {
            index = *before;
        } else {
            index = static_cast<uint32_t>(next.articles_.size());
            next.articles_.emplace_back();
            next.similar_.emplace_back();
        }
        ArticleEntry& entry = next.articles_[index];
        uint32_t oldKind = before ? entry.profile.kind : 0;
        entry.article = read.article;
        entry.contentHash = read.contentHash;
        entry.live = true;
        entry.available = read.available;
        entry.availableUntil = read.availableUntil;
        if (read.source) {
            if (!spaceCopied) {
                // Copy on first write: readers of the previous snapshot keep theirs untouched.
                next.space_ = std::make_shared<FeatureSpace>(*previous_->space_);
                spaceCopied = true;
            }
            entry.profile = next.space_->profile(*read.source);
            entry.featureHash = read.featureHash;
            dirty.push_back(index);
            oldKinds.push_back(before ? oldKind : 0);
            read.source.reset();
        }
        for (const auto& variant : read.article->variants) next.bySku_.emplace(variant.sku, index);
        next.bySku_.emplace(mainSku, index);
    }
    for (uint32_t i = 0; i < next.articles_.size(); ++i) {
        const ArticleEntry& entry = next.articles_[i];
        if (entry.live) next.kindMembers_[entry.profile.kind].push_back(i);
        else if (entry.article) next.deletedIndex_.emplace(entry.article->mainSku, i);
    }
    computeLists(next, dirty, oldKinds);

    std::vector<std::vector<uint32_t>> baskets;
    for (const auto& order : inputs.orders) {
        std::vector<uint32_t> basket;
        for (const auto& sku : order) {
            if (auto index = next.find(sku); index && std::find(basket.begin(), basket.end(), *index) == basket.end()) basket.push_back(*index);
        }
        if (!basket.empty()) baskets.push_back(std::move(basket));
    }
    std::vector<const ArticleProfile*> profiles(next.articles_.size());
    for (size_t i = 0; i < next.articles_.size(); ++i) profiles[i] = next.articles_[i].live ? &next.articles_[i].profile : nullptr;
    auto purchases = std::make_shared<CoPurchaseModel>();
    purchases->train(baskets, profiles);
    next.purchases_ = std::move(purchases);

    next.clock_ = inputs.clock;
    next.templates_ = inputs.templates ? inputs.templates : std::make_shared<const std::vector<SetTemplate>>();
    next.photoSets_ = inputs.photoSets ? inputs.photoSets : std::make_shared<const std::vector<PhotoSet>>();
    buildPools(next);
    resolveCustomSets(next, inputs.customSets);

    next.info_.full = !previous_;
    next.info_.articles = read_.size();
    next.info_.recomputed = dirty.size();
    read_.clear();
    return snapshot;
}

void ContentSnapshotBuilder::computeLists(ContentSnapshot& next, const std::vector<uint32_t>& dirty, const std::vector<uint32_t>& oldKinds) {
    SimilarityScorer scorer(*next.space_);
    // Dirty articles leave the lists of their former kind first (their new scores, or kind,
    // may differ); lists of articles no longer live keep them until they are listed again.
    if (previous_) {
        std::unordered_set<uint32_t> leaving(dirty.begin(), dirty.end());
        std::unordered_set<uint32_t> kinds(oldKinds.begin(), oldKinds.end());
        for (uint32_t kind : kinds) {
            for (uint32_t member : previous_->kindMembers(kind)) {
                auto& list = next.similar_[member];
                list.erase(std::remove_if(list.begin(), list.end(), [&](const Neighbour& n) { return leaving.count(n.article) > 0; }),
                           list.end());
            }
        }
    }
    std::vector<uint32_t> rows = dirty;
    if (!previous_) {
        rows.clear();
        for (uint32_t i = 0; i < next.articles_.size(); ++i) {
            if (next.articles_[i].live) rows.push_back(i);
        }
    }
    // Candidates per kind, with an inverted index of their text: a row's cosines with the
    // whole kind are accumulated token by token, far cheaper than a merge per pair.
    // Kind 0 (no category, nothing the classifier knew) compares with everything.
    struct Bucket {
        std::vector<uint32_t> members;
        std::unordered_map<uint32_t, std::vector<std::pair<uint32_t, float>>> postings;  // token -> (member, weight)
    };
    std::unordered_map<uint32_t, Bucket> buckets;
    bool anyKindless = false;
    for (uint32_t row : rows) anyKindless = anyKindless || next.articles_[row].profile.kind == 0;
    auto fill = [&](Bucket& bucket, const std::vector<uint32_t>& members) {
        // Beyond kMaxComparisonsPerArticle members, an evenly spaced sample: a single huge
        // category must not make builds quadratic.
        size_t step = members.size() > kMaxComparisonsPerArticle ? members.size() / kMaxComparisonsPerArticle + 1 : 1;
        for (size_t m = 0; m < members.size(); m += step) {
            auto local = static_cast<uint32_t>(bucket.members.size());
            bucket.members.push_back(members[m]);
            const ArticleProfile& profile = next.articles_[members[m]].profile;
            for (size_t t = 0; t < profile.tokens.size(); ++t) {
                if (profile.weights[t] != 0) bucket.postings[profile.tokens[t]].emplace_back(local, profile.weights[t]);
            }
        }
    };
    std::unordered_set<uint32_t> rowKinds;
    for (uint32_t row : rows) rowKinds.insert(next.articles_[row].profile.kind);
    for (uint32_t kind : rowKinds) {
        if (kind != 0) fill(buckets[kind], next.kindMembers(kind));
    }
    if (anyKindless) {
        std::vector<uint32_t> everyone;
        for (uint32_t i = 0; i < next.articles_.size(); ++i) {
            if (next.articles_[i].live) everyone.push_back(i);
        }
        fill(buckets[0], everyone);
    }
    // For incremental builds the scores of each dirty row are kept to place the row's
    // article into its neighbours' lists afterwards.
    std::vector<std::vector<Neighbour>> rowScores(previous_ ? rows.size() : 0);
    parallel_(rows.size(), [&](size_t r) {
        uint32_t anchor = rows[r];
        const ArticleProfile& profile = next.articles_[anchor].profile;
        const Bucket& bucket = buckets.at(profile.kind);
        std::vector<float> cosines(bucket.members.size(), 0.0f);
        for (size_t t = 0; t < profile.tokens.size(); ++t) {
            auto postings = bucket.postings.find(profile.tokens[t]);
            if (postings == bucket.postings.end()) continue;
            float weight = profile.weights[t];
            for (const auto& [member, memberWeight] : postings->second) cosines[member] += weight * memberWeight;
        }
        std::vector<Neighbour> scored;
        scored.reserve(bucket.members.size());
        for (size_t m = 0; m < bucket.members.size(); ++m) {
            uint32_t candidate = bucket.members[m];
            if (candidate == anchor) continue;
            double score = scorer.score(profile, next.articles_[candidate].profile, cosines[m]);
            if (score < 0) continue;
            scored.push_back({candidate, static_cast<float>(score)});
        }
        if (previous_) rowScores[r] = scored;
        size_t keep = std::min(scored.size(), ContentSnapshot::kSimilarListLength);
        std::partial_sort(scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(keep), scored.end(), better);
        scored.resize(keep);
        next.similar_[anchor] = std::move(scored);
    });
    if (!previous_) return;
    std::unordered_set<uint32_t> isDirty(dirty.begin(), dirty.end());
    for (size_t r = 0; r < rows.size(); ++r) {
        for (const Neighbour& neighbour : rowScores[r]) {
            if (isDirty.count(neighbour.article)) continue;  // its own row is fresh already
            insertNeighbour(next.similar_[neighbour.article], {rows[r], neighbour.score});
        }
    }
}

void ContentSnapshotBuilder::buildPools(ContentSnapshot& next) const {
    std::unordered_map<uint32_t, std::vector<uint32_t>> byCategoryKey;
    for (uint32_t i = 0; i < next.articles_.size(); ++i) {
        const ArticleEntry& entry = next.articles_[i];
        if (!entry.live) continue;
        for (uint32_t key : entry.profile.categoryKeys) byCategoryKey[key].push_back(i);
    }
    const CoPurchaseModel& purchases = *next.purchases_;
    const auto& templates = *next.templates_;
    for (size_t t = 0; t < templates.size(); ++t) {
        for (size_t s = 0; s < templates[t].slots.size(); ++s) {
            SlotPool pool{t, s, {}};
            for (const auto& category : templates[t].slots[s].categories) {
                uint32_t key = next.space_->find(TextTokenizer::key(category));
                auto found = key ? byCategoryKey.find(key) : byCategoryKey.end();
                if (found != byCategoryKey.end()) pool.articles.insert(pool.articles.end(), found->second.begin(), found->second.end());
            }
            std::sort(pool.articles.begin(), pool.articles.end());
            pool.articles.erase(std::unique(pool.articles.begin(), pool.articles.end()), pool.articles.end());
            // Most bought first, so a query scanning a bounded prefix sees the likeliest
            // conversions; without purchases a stable hash spreads brands and colours.
            std::sort(pool.articles.begin(), pool.articles.end(), [&](uint32_t a, uint32_t b) {
                double pa = purchases.popularity(a), pb = purchases.popularity(b);
                if (pa != pb) return pa > pb;
                uint64_t ha = mix(a + 0x9e3779b97f4a7c15ull * (t + 1)), hb = mix(b + 0x9e3779b97f4a7c15ull * (t + 1));
                return ha != hb ? ha < hb : a < b;
            });
            next.slotPools_.push_back(std::move(pool));
        }
    }
}

void ContentSnapshotBuilder::resolveCustomSets(ContentSnapshot& next, const std::vector<CustomSet>& sets) const {
    std::map<std::pair<uint32_t, uint32_t>, int> together;
    for (const auto& set : sets) {
        ResolvedCustomSet resolved{set, {}};
        for (const auto& sku : set.skus) {
            auto index = next.find(sku);
            if (index && std::find(resolved.articles.begin(), resolved.articles.end(), *index) == resolved.articles.end())
                resolved.articles.push_back(*index);
        }
        auto position = static_cast<uint32_t>(next.customSets_.size());
        for (uint32_t article : resolved.articles) next.customSetsByArticle_[article].push_back(position);
        for (uint32_t a : resolved.articles) {
            for (uint32_t b : resolved.articles) {
                uint32_t ka = next.articles_[a].profile.kind, kb = next.articles_[b].profile.kind;
                if (ka != 0 && kb != 0 && ka != kb) together[{ka, kb}] += 1;
            }
        }
        next.customSets_.push_back(std::move(resolved));
    }
    std::unordered_map<uint32_t, std::vector<std::pair<int, uint32_t>>> companions;
    for (const auto& [pair, count] : together) companions[pair.first].emplace_back(count, pair.second);
    for (auto& [kind, list] : companions) {
        std::sort(list.begin(), list.end(), [](const auto& x, const auto& y) { return x.first != y.first ? x.first > y.first : x.second < y.second; });
        auto& out = next.customCompanions_[kind];
        for (const auto& entry : list) out.push_back(entry.second);
    }
}

}  // namespace svc
