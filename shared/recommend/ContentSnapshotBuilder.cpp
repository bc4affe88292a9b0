#include "recommend/ContentSnapshotBuilder.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_set>

#include "catalog/Availability.hpp"
#include "recommend/SimilarityScorer.hpp"
#include "recommend/StableMix.hpp"
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
        hash.add(v.recordedLowestPrice30d.value_or(-1));
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

bool better(const Neighbour& a, const Neighbour& b) {
    return a.score != b.score ? a.score > b.score : a.article < b.article;
}

// The text weights of a kind's recomputed rows by token, for their cosines with each of the
// kind's articles: a small open-addressing table from a token to the rows that have it, so
// an article's terms are read once for all rows, and each of its tokens is looked up once.
class RowsTerms {
public:
    explicit RowsTerms(const std::vector<const ProfileTerms*>& rows) {
        std::vector<std::tuple<uint32_t, uint32_t, float>> all;  // token, row, weight
        for (uint32_t row = 0; row < rows.size(); ++row) {
            for (size_t t = 0; t < rows[row]->tokens.size(); ++t) all.emplace_back(rows[row]->tokens[t], row, rows[row]->weights[t]);
        }
        std::sort(all.begin(), all.end());
        size_t size = 16;
        while (size < all.size() * 2) size *= 2;
        mask_ = size - 1;
        slots_.assign(size, Slot{});
        for (size_t i = 0; i < all.size();) {
            uint32_t token = std::get<0>(all[i]);
            auto first = static_cast<uint32_t>(entries_.size());
            for (; i < all.size() && std::get<0>(all[i]) == token; ++i) entries_.emplace_back(std::get<1>(all[i]), std::get<2>(all[i]));
            size_t at = slotOf(token);
            while (slots_[at].count) at = (at + 1) & mask_;
            slots_[at] = {token, first, static_cast<uint32_t>(entries_.size()) - first};
        }
    }
    // out[row] = the row's cosine with `other`: the same sums as SimilarityScorer::cosine(row,
    // other), matching tokens added in ascending order.
    void cosines(const ProfileTerms& other, std::vector<double>& out) const {
        std::fill(out.begin(), out.end(), 0.0);
        for (size_t t = 0; t < other.tokens.size(); ++t) {
            uint32_t token = other.tokens[t];
            for (size_t at = slotOf(token); slots_[at].count; at = (at + 1) & mask_) {
                if (slots_[at].token != token) continue;
                for (uint32_t e = slots_[at].first; e < slots_[at].first + slots_[at].count; ++e) {
                    out[entries_[e].first] += static_cast<double>(entries_[e].second) * other.weights[t];
                }
                break;
            }
        }
    }

private:
    struct Slot {
        uint32_t token = 0;
        uint32_t first = 0;
        uint32_t count = 0;  // 0: free
    };
    size_t slotOf(uint32_t token) const { return (token * 2654435761u) & mask_; }
    std::vector<Slot> slots_;
    std::vector<std::pair<uint32_t, float>> entries_;  // (row, weight), grouped by token
    size_t mask_ = 0;
};

using SharedList = std::shared_ptr<const std::vector<Neighbour>>;

}  // namespace

ContentSnapshotBuilder::ContentSnapshotBuilder(std::shared_ptr<const ContentSnapshot> previous, ParallelFor parallel, bool changedOnly)
    : previous_(std::move(previous)), parallel_(std::move(parallel)), changedOnly_(changedOnly && previous_ != nullptr) {
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
    std::string mainSku = current_.front().mainSku;
    current_.erase(std::remove_if(current_.begin(), current_.end(), [](const Product& p) { return p.deleted; }), current_.end());
    if (current_.empty()) {
        gone_.push_back(std::move(mainSku));
        return;
    }
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
    bool poolsChanged = !previous_;  // an article's pool membership or order may have moved

    if (previous_) {
        // Indices stay stable across incremental builds: lists of other articles keep pointing right.
        next.articles_ = previous_->articles_;
        next.similar_ = previous_->similar_;
        if (!changedOnly_) {
            for (auto& entry : next.articles_) entry.live = entry.available = false;
        }
        next.space_ = previous_->space_;
    } else {
        next.space_ = std::make_shared<FeatureSpace>();
        std::vector<const Product*> representatives;
        representatives.reserve(read_.size());
        for (const auto& read : read_) representatives.push_back(read.source.get());
        next.space_->train(representatives);
    }
    bool spaceCopied = !previous_;
    // Whether any SKU came or went: if not, the SKU index of the previous snapshot serves.
    bool skusChanged = !previous_;
    size_t previouslyLive = 0;
    if (previous_) {
        for (const auto& entry : previous_->articles_) previouslyLive += entry.live ? 1 : 0;
    }
    size_t stillLive = 0;
    auto sameSkus = [](const Article& x, const Article& y) {
        if (x.variants.size() != y.variants.size()) return false;
        for (size_t i = 0; i < x.variants.size(); ++i) {
            if (x.variants[i].sku != y.variants[i].sku) return false;
        }
        return true;
    };
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
        if (!before || !previous_->articles_[index].live) {
            skusChanged = true;
        } else {
            ++stillLive;
            if (entry.article != read.article && !sameSkus(*entry.article, *read.article)) skusChanged = true;
        }
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
            ArticleProfile fresh = next.space_->profile(*read.source);
            // Pools hold live articles by category keys and department: only these matter to them.
            if (!before || fresh.categoryKeys() != entry.profile.categoryKeys() || fresh.department != entry.profile.department) poolsChanged = true;
            entry.profile = std::move(fresh);
            entry.featureHash = read.featureHash;
            dirty.push_back(index);
            oldKinds.push_back(before ? oldKind : 0);
            read.source.reset();
        }
    }
    // Words a full build's profiles added (models, colours, brands) join the shared vocabulary:
    // incremental builds copy the space, and would otherwise copy them every time.
    if (!previous_) next.space_->freeze();
    if (changedOnly_) {
        // Articles given with every variant deleted are gone; the others not given stand.
        for (const auto& mainSku : gone_) {
            auto index = previous_->indexOfMainSku(mainSku);
            if (!index || !next.articles_[*index].live) continue;
            next.articles_[*index].live = next.articles_[*index].available = false;
            skusChanged = true;
        }
    } else if (stillLive != previouslyLive) {
        skusChanged = true;  // some article is no longer listed
    }
    if (skusChanged) {
        auto bySku = std::make_shared<ContentSnapshot::SkuIndex>();
        auto deleted = std::make_shared<ContentSnapshot::SkuIndex>();
        bySku->reserve(read_.size() * 6);
        for (uint32_t i = 0; i < next.articles_.size(); ++i) {
            const ArticleEntry& entry = next.articles_[i];
            if (!entry.article) continue;
            if (!entry.live) {
                deleted->emplace(entry.article->mainSku, i);
                continue;
            }
            for (const auto& variant : entry.article->variants) bySku->emplace(variant.sku, i);
            bySku->emplace(entry.article->mainSku, i);
        }
        next.bySku_ = std::move(bySku);
        next.deletedIndex_ = std::move(deleted);
    } else {
        next.bySku_ = previous_->bySku_;
        next.deletedIndex_ = previous_->deletedIndex_;
    }
    for (uint32_t i = 0; i < next.articles_.size(); ++i) {
        const ArticleEntry& entry = next.articles_[i];
        if (entry.live) next.kindMembers_[entry.profile.kind].push_back(i);
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
    // Pools depend on the templates, the live articles' category keys and departments, and
    // popularity: when none of them moved (most deltas), the previous pools stand.
    bool samePurchases = previous_ && next.purchases_->empty() && previous_->purchases_->empty();
    if (!poolsChanged && !skusChanged && samePurchases && *next.templates_ == *previous_->templates_) {
        next.slotPools_ = previous_->slotPools_;
        next.compiled_ = previous_->compiled_;
    } else {
        buildPools(next);
    }
    resolveCustomSets(next, inputs.customSets);

    next.info_.full = !previous_;
    next.info_.articles = 0;
    for (const auto& entry : next.articles_) next.info_.articles += entry.live ? 1 : 0;
    next.info_.recomputed = dirty.size();
    read_.clear();
    return snapshot;
}

void ContentSnapshotBuilder::computeLists(ContentSnapshot& next, const std::vector<uint32_t>& dirty, const std::vector<uint32_t>& oldKinds) {
    SimilarityScorer scorer(*next.space_);
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
        bool indexed = false;  // postings built: worth it when many rows of the kind are computed
        std::unordered_map<uint32_t, std::vector<std::pair<uint32_t, float>>> postings;  // token -> (member, weight)
        // Not indexed: the cosines of the kind's rows with every member, one row after the other.
        std::vector<uint32_t> rows;
        std::vector<float> rowCosines;
    };
    std::unordered_map<uint32_t, Bucket> buckets;
    bool anyKindless = false;
    for (uint32_t row : rows) anyKindless = anyKindless || next.articles_[row].profile.kind == 0;
    // Rows per kind: an incremental build with a few changed articles of a kind compares
    // them pair by pair instead of indexing the whole kind's texts.
    std::unordered_map<uint32_t, size_t> rowsOfKind;
    for (uint32_t row : rows) rowsOfKind[next.articles_[row].profile.kind] += 1;
    auto fill = [&](Bucket& bucket, const std::vector<uint32_t>& members) {
        // Beyond kMaxComparisonsPerArticle members, an evenly spaced sample: a single huge
        // category must not make builds quadratic.
        size_t step = members.size() > kMaxComparisonsPerArticle ? members.size() / kMaxComparisonsPerArticle + 1 : 1;
        for (size_t m = 0; m < members.size(); m += step) {
            auto local = static_cast<uint32_t>(bucket.members.size());
            bucket.members.push_back(members[m]);
            if (!bucket.indexed) continue;
            const ProfileTerms& terms = *next.articles_[members[m]].profile.terms;
            for (size_t t = 0; t < terms.tokens.size(); ++t) {
                if (terms.weights[t] != 0) bucket.postings[terms.tokens[t]].emplace_back(local, terms.weights[t]);
            }
        }
    };
    std::unordered_set<uint32_t> rowKinds;
    for (uint32_t row : rows) rowKinds.insert(next.articles_[row].profile.kind);
    for (uint32_t kind : rowKinds) {
        if (kind == 0) continue;
        Bucket& bucket = buckets[kind];
        bucket.indexed = rowsOfKind[kind] * 16 >= next.kindMembers(kind).size();
        fill(bucket, next.kindMembers(kind));
    }
    if (anyKindless) {
        std::vector<uint32_t> everyone;
        for (uint32_t i = 0; i < next.articles_.size(); ++i) {
            if (next.articles_[i].live) everyone.push_back(i);
        }
        buckets[0].indexed = rowsOfKind[0] * 16 >= everyone.size();
        fill(buckets[0], everyone);
    }
    // Kinds with few rows compare pair by pair: each member's terms are read once for all the
    // kind's rows (they are scattered over the heap; per row, every pair cost cache misses),
    // in slices of members spread over the threads.
    std::vector<size_t> rowSlot(rows.size(), 0);  // the row's place in its bucket's rows
    for (size_t r = 0; r < rows.size(); ++r) {
        Bucket& bucket = buckets.at(next.articles_[rows[r]].profile.kind);
        if (bucket.indexed) continue;
        rowSlot[r] = bucket.rows.size();
        bucket.rows.push_back(rows[r]);
    }
    constexpr size_t kSlice = 128;
    std::vector<std::pair<Bucket*, size_t>> slices;  // bucket, first member
    for (auto& [kind, bucket] : buckets) {
        if (bucket.indexed) continue;
        bucket.rowCosines.assign(bucket.rows.size() * bucket.members.size(), 0.0f);
        for (size_t m = 0; m < bucket.members.size(); m += kSlice) slices.emplace_back(&bucket, m);
    }
    parallel_(slices.size(), [&](size_t s) {
        Bucket& bucket = *slices[s].first;
        std::vector<const ProfileTerms*> rowTerms;
        for (uint32_t row : bucket.rows) rowTerms.push_back(next.articles_[row].profile.terms.get());
        RowsTerms lookup(rowTerms);
        std::vector<double> sums(rowTerms.size());
        size_t count = bucket.members.size();
        for (size_t m = slices[s].second; m < std::min(count, slices[s].second + kSlice); ++m) {
            lookup.cosines(*next.articles_[bucket.members[m]].profile.terms, sums);
            for (size_t j = 0; j < sums.size(); ++j) bucket.rowCosines[j * count + m] = static_cast<float>(sums[j]);
        }
    });
    // For incremental builds the scores of each dirty row are kept to place the row's
    // article into its neighbours' lists afterwards.
    std::vector<std::vector<Neighbour>> rowScores(previous_ ? rows.size() : 0);
    parallel_(rows.size(), [&](size_t r) {
        uint32_t anchor = rows[r];
        const ArticleProfile& profile = next.articles_[anchor].profile;
        const Bucket& bucket = buckets.at(profile.kind);
        std::vector<float> cosines;
        if (bucket.indexed) {
            cosines.assign(bucket.members.size(), 0.0f);
            const ProfileTerms& terms = *profile.terms;
            for (size_t t = 0; t < terms.tokens.size(); ++t) {
                auto postings = bucket.postings.find(terms.tokens[t]);
                if (postings == bucket.postings.end()) continue;
                float weight = terms.weights[t];
                for (const auto& [member, memberWeight] : postings->second) cosines[member] += weight * memberWeight;
            }
        } else {
            auto first = bucket.rowCosines.begin() + static_cast<std::ptrdiff_t>(rowSlot[r] * bucket.members.size());
            cosines.assign(first, first + static_cast<std::ptrdiff_t>(bucket.members.size()));
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
        size_t keep = std::min(scored.size(), ContentSnapshot::kSimilarListLength);
        std::partial_sort(scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(keep), scored.end(), better);
        // A list of its own size: `scored` has the capacity of the whole kind, which for a
        // million SKUs would keep gigabytes of slack alive.
        next.similar_[anchor] = std::make_shared<const std::vector<Neighbour>>(scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(keep));
        if (previous_) rowScores[r] = std::move(scored);  // every score, in any order
    });
    if (previous_) mergeIntoLists(next, rows, rowScores, oldKinds);
}

void ContentSnapshotBuilder::mergeIntoLists(ContentSnapshot& next, const std::vector<uint32_t>& rows,
                                            const std::vector<std::vector<Neighbour>>& rowScores, const std::vector<uint32_t>& oldKinds) {
    // The rows' articles (dirty) leave the lists of their former kind (their scores, or kind,
    // may have changed) and enter the lists of their new kind's members where they score high
    // enough. Each list is rebuilt at most once, and only when it changes: a list that holds
    // none of them and would take none stays shared with the previous snapshot. Lists of
    // articles no longer live keep them until they are listed again.
    size_t count = next.articles_.size();
    std::vector<char> isRow(count, 0);
    for (uint32_t row : rows) isRow[row] = 1;
    // Incoming entries per member (CSR: offsets into one array), from every row's scores.
    std::vector<uint32_t> offsets(count + 1, 0);
    for (const auto& scores : rowScores) {
        for (const Neighbour& n : scores) offsets[n.article + 1] += isRow[n.article] ? 0 : 1;  // a row's own list is fresh
    }
    for (size_t i = 0; i < count; ++i) offsets[i + 1] += offsets[i];
    std::vector<Neighbour> incoming(offsets[count]);
    {
        std::vector<uint32_t> fillAt(offsets.begin(), offsets.end() - 1);
        for (size_t r = 0; r < rows.size(); ++r) {
            for (const Neighbour& n : rowScores[r]) {
                if (!isRow[n.article]) incoming[fillAt[n.article]++] = {rows[r], n.score};
            }
        }
    }
    // The members whose lists may change: those of the rows' former kinds (lists that may
    // hold a row's article) and those with incoming entries.
    std::vector<char> affected(count, 0);
    std::unordered_set<uint32_t> kinds(oldKinds.begin(), oldKinds.end());
    for (uint32_t kind : kinds) {
        for (uint32_t member : previous_->kindMembers(kind)) affected[member] = 1;
    }
    std::vector<uint32_t> members;
    for (uint32_t i = 0; i < count; ++i) {
        if (!isRow[i] && (affected[i] || offsets[i + 1] > offsets[i])) members.push_back(i);
    }
    parallel_(members.size(), [&](size_t k) {
        uint32_t member = members[k];
        SharedList& shared = next.similar_[member];
        static const std::vector<Neighbour> none;
        const std::vector<Neighbour>& old = shared ? *shared : none;
        auto isLeaving = [&](const Neighbour& n) { return isRow[n.article] != 0; };
        bool leaving = std::any_of(old.begin(), old.end(), isLeaving);
        // Incoming entries that would make the list, best first.
        std::vector<Neighbour> in;
        bool full = old.size() >= ContentSnapshot::kSimilarListLength;
        for (uint32_t i = offsets[member]; i < offsets[member + 1]; ++i) {
            if (leaving || !full || better(incoming[i], old.back())) in.push_back(incoming[i]);
        }
        if (!leaving && in.empty()) return;  // unchanged: stays shared
        std::sort(in.begin(), in.end(), better);
        auto list = std::make_shared<std::vector<Neighbour>>();
        list->reserve(std::min(ContentSnapshot::kSimilarListLength, old.size() + in.size()));
        auto o = old.begin();
        auto n = in.begin();
        while (list->size() < ContentSnapshot::kSimilarListLength) {
            while (o != old.end() && isLeaving(*o)) ++o;
            if (o == old.end() && n == in.end()) break;
            if (n == in.end() || (o != old.end() && better(*o, *n))) list->push_back(*o++);
            else list->push_back(*n++);
        }
        shared = std::move(list);
    });
}

void ContentSnapshotBuilder::buildPools(ContentSnapshot& next) const {
    const auto& templates = *next.templates_;
    const FeatureSpace& space = *next.space_;
    for (const auto& setTemplate : templates) {
        CompiledTemplate compiled;
        for (const auto& slot : setTemplate.slots) {
            std::vector<uint32_t> keys;
            for (const auto& category : slot.categories) {
                if (uint32_t key = space.find(TextTokenizer::key(category))) keys.push_back(key);
            }
            compiled.slotKeys.push_back(std::move(keys));
            std::vector<ColorFamily> colors;
            for (const auto& name : slot.colorFamilies) colors.push_back(colorFamilyFromText(name));
            compiled.slotColors.push_back(std::move(colors));
        }
        compiled.occasionsGiven = !setTemplate.occasions.empty();
        for (const auto& name : setTemplate.occasions) {
            if (uint32_t id = space.find(FeatureSpace::occasionKey(name))) compiled.occasions.push_back(id);
        }
        for (const auto& name : setTemplate.departments) compiled.departments.push_back(departmentFromText(name));
        next.compiled_.push_back(std::move(compiled));
    }

    std::unordered_map<uint32_t, std::vector<uint32_t>> byCategoryKey;
    for (uint32_t i = 0; i < next.articles_.size(); ++i) {
        const ArticleEntry& entry = next.articles_[i];
        if (!entry.live) continue;
        for (uint32_t key : entry.profile.categoryKeys()) byCategoryKey[key].push_back(i);
    }
    // Order keys computed once per article (a sort comparing through hash maps is slow):
    // most bought first, so a query scanning a bounded prefix sees the likeliest
    // conversions; without purchases a stable hash spreads brands and colours.
    const CoPurchaseModel& purchases = *next.purchases_;
    std::vector<double> popularity(next.articles_.size(), 0.0);
    if (!purchases.empty()) {
        for (uint32_t i = 0; i < next.articles_.size(); ++i) popularity[i] = purchases.popularity(i);
    }
    std::vector<uint64_t> spread(next.articles_.size());
    for (uint32_t i = 0; i < next.articles_.size(); ++i) spread[i] = stableMix(i + 0x9e3779b97f4a7c15ull);
    auto before = [&](uint32_t a, uint32_t b) {
        if (popularity[a] != popularity[b]) return popularity[a] > popularity[b];
        return spread[a] != spread[b] ? spread[a] < spread[b] : a < b;
    };
    for (size_t t = 0; t < templates.size(); ++t) {
        for (size_t s = 0; s < templates[t].slots.size(); ++s) {
            std::vector<uint32_t> members;
            for (uint32_t key : next.compiled_[t].slotKeys[s]) {
                auto found = byCategoryKey.find(key);
                if (found != byCategoryKey.end()) members.insert(members.end(), found->second.begin(), found->second.end());
            }
            std::sort(members.begin(), members.end());
            members.erase(std::unique(members.begin(), members.end()), members.end());
            SlotPool pool{t, s, {}};
            for (uint32_t article : members) {
                pool.byDepartment[static_cast<size_t>(next.articles_[article].profile.department)].push_back(article);
            }
            for (auto& list : pool.byDepartment) std::sort(list.begin(), list.end(), before);
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
