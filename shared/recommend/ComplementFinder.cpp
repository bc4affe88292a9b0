#include "recommend/ComplementFinder.hpp"

#include <algorithm>
#include <cmath>

#include "recommend/StableMix.hpp"
#include "recommend/TextTokenizer.hpp"

namespace svc {
namespace {

bool listsAny(const std::vector<uint32_t>& keys, const std::vector<uint32_t>& wanted) {
    for (uint32_t key : wanted) {
        if (std::find(keys.begin(), keys.end(), key) != keys.end()) return true;
    }
    return false;
}

// Strict for sets: a known department must meet its own or Unisex (Unknown is let in:
// a feed without the column still gets sets).
bool departmentFits(Department anchor, Department candidate) {
    if (anchor == Department::Unknown || candidate == Department::Unknown || candidate == Department::Unisex) return true;
    if (anchor == Department::Unisex) return candidate == Department::Men || candidate == Department::Women;
    return departmentsCompatible(anchor, candidate) && (anchor == candidate || anchor == Department::Kids || candidate == Department::Kids);
}

bool templateFits(const CompiledTemplate& compiled, const ArticleProfile& anchor, const FeatureSpace& space) {
    if (!compiled.departments.empty() && anchor.department != Department::Unknown) {
        bool any = false;
        for (Department department : compiled.departments) any = any || departmentsCompatible(department, anchor.department);
        if (!any) return false;
    }
    if (compiled.occasionsGiven && anchor.occasion != 0) {
        // An occasion this catalog never mentions has no id: it matches nothing, not everything.
        bool any = false;
        for (uint32_t id : compiled.occasions) any = any || space.occasionsCompatible(id, anchor.occasion);
        if (!any) return false;
    }
    return true;
}

}  // namespace

std::vector<uint32_t> ComplementFinder::rank(uint32_t anchor, const std::vector<const std::vector<uint32_t>*>& lists,
                                             const Position& position, size_t limit, std::vector<double>* scores) const {
    const FeatureSpace& space = snapshot_.space();
    const ArticleProfile& a = snapshot_.entry(anchor).profile;
    const CoPurchaseModel& purchases = snapshot_.purchases();
    const CompiledTemplate* compiled = position.compiled;
    std::vector<Scored>& scored = scored_;
    scored.clear();
    scored.reserve(kScanLimit);
    size_t visited = 0;
    for (const auto* list : lists) {
        for (uint32_t candidate : *list) {
            if (scored.size() >= kScanLimit || visited >= kVisitLimit) break;
            ++visited;
            const ArticleProfile& b = snapshot_.entry(candidate).profile;
            if (candidate == anchor || b.kind == a.kind || b.model == a.model || !snapshot_.availableAt(candidate, now_)) continue;
            if (!departmentFits(a.department, b.department)) continue;
            if (!space.occasionsCompatible(a.occasion, b.occasion)) continue;
            if (compiled) {
                // Within a template, the template's departments: a Unisex anchor never gets a set
                // mixing men's shoes with a women's bag.
                if (!compiled->departments.empty() && b.department != Department::Unknown && b.department != Department::Unisex &&
                    std::find(compiled->departments.begin(), compiled->departments.end(), b.department) == compiled->departments.end())
                    continue;
                if (compiled->occasionsGiven && b.occasion != 0 &&
                    std::none_of(compiled->occasions.begin(), compiled->occasions.end(),
                                 [&](uint32_t id) { return space.occasionsCompatible(id, b.occasion); }))
                    continue;
            }
            if (position.evidence && b.kind != position.kind) continue;
            double score = colorHarmony(a.colorFamily, b.colorFamily);
            if (position.preferredColors && !position.preferredColors->empty() &&
                std::find(position.preferredColors->begin(), position.preferredColors->end(), b.colorFamily) != position.preferredColors->end())
                score += 0.5;
            if (a.occasion != 0 && a.occasion == b.occasion) score += 0.5;
            if (departmentsEqual(a.department, b.department)) score += 0.25;
            if (a.price > 0 && b.price > 0) {
                // Items of a similar price tier sell together more often than a bargain with a luxury piece.
                double ratio = std::fabs(static_cast<double>(a.logPrice - b.logPrice));
                score += 0.5 * std::max(0.0, 1.0 - ratio / 2);
            }
            if (position.evidence) {
                // What was learned decides; the curated preferences above only order articles it cannot tell apart.
                // What was bought with the anchor backs off to the article's share of its kind by a prior
                // strength estimated from the tenant's own orders (a fixed 10 let single co-purchases rule).
                double share = purchases.articleShare(candidate, b.kind) * purchases.attributeRatio(a, b);
                auto found = position.evidence->find(candidate);
                double evidence = found == position.evidence->end() ? 0 : found->second;
                const double m = purchases.articlePriorOrders();
                score = (evidence + m * share) / (position.kindEvidence + m) + 1e-7 * score;
            } else {
                score += purchases.score(anchor, a, candidate, b);
            }
            // A small per-anchor jitter: neighbouring anchors get varied sets among equals.
            double jitter = static_cast<double>(stableMix((static_cast<uint64_t>(anchor) << 32) ^ candidate) % 1000) / 1000.0;
            score += (position.evidence ? 1e-9 : 1e-3) * jitter;
            scored.push_back({score, candidate});
        }
    }
    if (position.evidence) {
        // A learned position reads overlapping lists (partners, most bought, the whole kind).
        std::sort(scored.begin(), scored.end(), [](const Scored& x, const Scored& y) { return x.article < y.article; });
        scored.erase(std::unique(scored.begin(), scored.end(), [](const Scored& x, const Scored& y) { return x.article == y.article; }),
                     scored.end());
    }
    size_t keep = std::min(limit, scored.size());
    std::partial_sort(scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(keep), scored.end(),
                      [](const Scored& x, const Scored& y) { return x.score != y.score ? x.score > y.score : x.article < y.article; });
    std::vector<uint32_t> result;
    result.reserve(keep);
    for (size_t i = 0; i < keep; ++i) result.push_back(scored[i].article);
    if (scores) {
        scores->clear();
        for (size_t i = 0; i < keep; ++i) scores->push_back(scored[i].score);
    }
    return result;
}

std::vector<ComplementCluster> ComplementFinder::clusters(uint32_t anchor, size_t maxClusters, size_t perCluster) const {
    std::vector<ComplementCluster> clusters;
    if (maxClusters == 0 || perCluster == 0) return clusters;
    // Positions are always worked out at full depth (kClusterDepth) and cut to `perCluster`
    // at the end: which kinds a position takes must not depend on how much of it is asked for.
    const size_t depth = kClusterDepth;
    const ArticleProfile& a = snapshot_.entry(anchor).profile;
    if (a.kind == 0) return clusters;
    const FeatureSpace& space = snapshot_.space();
    const auto& templates = snapshot_.templates();
    const auto& compiled = snapshot_.compiledTemplates();
    // Bookkeeping without a node per entry (a std::set here was a quarter of an answer's
    // time in bench-recommend): kinds and positions are few, so plain vectors; articles
    // taken reach kClusterDepth per position, so a sorted vector merged once per position.
    std::vector<std::string> positionsTaken;  // slot names and kind texts already in a cluster
    std::vector<uint32_t> articlesTaken;      // sorted
    std::vector<uint32_t> kindsTaken{a.kind};  // a kind fills one position only
    auto contains = [](const auto& values, const auto& value) { return std::find(values.begin(), values.end(), value) != values.end(); };
    auto addCluster = [&](std::string name, std::string source, const std::vector<std::string>& tags, std::vector<uint32_t> articles) {
        if (contains(positionsTaken, name)) return;
        std::vector<uint32_t> fresh;
        fresh.reserve(articles.size());
        for (uint32_t article : articles) {
            // rank() returns distinct articles, so only earlier positions' articles need checking.
            if (contains(kindsTaken, snapshot_.entry(article).profile.kind)) continue;  // an earlier position's kind
            if (!std::binary_search(articlesTaken.begin(), articlesTaken.end(), article)) fresh.push_back(article);
        }
        if (fresh.empty()) return;
        positionsTaken.push_back(name);
        for (uint32_t article : fresh) {
            uint32_t kind = snapshot_.entry(article).profile.kind;
            if (!contains(kindsTaken, kind)) kindsTaken.push_back(kind);
        }
        size_t before = articlesTaken.size();
        articlesTaken.insert(articlesTaken.end(), fresh.begin(), fresh.end());
        std::sort(articlesTaken.begin() + static_cast<std::ptrdiff_t>(before), articlesTaken.end());
        std::inplace_merge(articlesTaken.begin(), articlesTaken.begin() + static_cast<std::ptrdiff_t>(before), articlesTaken.end());
        clusters.push_back({"", std::move(name), std::move(source), tags, std::move(fresh), 0, {}});
    };
    // The department lists a candidate may come from, the anchor's own first.
    std::vector<size_t> departments{static_cast<size_t>(a.department)};
    for (size_t d = 0; d < kDepartmentCount; ++d) {
        if (d != departments.front() && departmentFits(a.department, static_cast<Department>(d))) departments.push_back(d);
    }

    // 1. Templates whose slots include the anchor's category, fitting its department and occasion
    //    (decided once per template, not once per slot pool).
    std::vector<char> matches(compiled.size(), 0);
    for (size_t t = 0; t < compiled.size(); ++t) {
        bool anchorSlotFound = false;
        for (const auto& keys : compiled[t].slotKeys) anchorSlotFound = anchorSlotFound || listsAny(a.categoryKeys(), keys);
        matches[t] = anchorSlotFound && templateFits(compiled[t], a, space);
    }
    for (const SlotPool& pool : snapshot_.slotPools()) {
        if (!matches[pool.templateIndex]) continue;
        const CompiledTemplate& form = compiled[pool.templateIndex];
        if (listsAny(a.categoryKeys(), form.slotKeys[pool.slotIndex])) continue;  // the anchor's own position
        const SetTemplate& setTemplate = templates[pool.templateIndex];
        if (contains(positionsTaken, setTemplate.slots[pool.slotIndex].name)) continue;  // filled by an earlier template
        std::vector<const std::vector<uint32_t>*> lists;
        for (size_t d : departments) lists.push_back(&pool.byDepartment[d]);
        addCluster(setTemplate.slots[pool.slotIndex].name, "template:" + setTemplate.id, setTemplate.tags,
                   rank(anchor, lists, Position{&form.slotColors[pool.slotIndex], &form}, depth));
    }
    // 2. Kinds the operator put together with the anchor's kind in custom sets.
    for (uint32_t kind : snapshot_.customSetCompanions(a.kind)) {
        if (contains(kindsTaken, kind)) continue;
        addCluster(space.text(kind), "custom-sets", {}, rank(anchor, {&snapshot_.kindMembers(kind)}, Position{}, depth));
    }
    const CoPurchaseModel& purchases = snapshot_.purchases();
    if (purchases.ready()) {
        clusters = learnedClusters(anchor, clusters, maxClusters);
        for (auto& cluster : clusters) {
            if (cluster.articles.size() > perCluster) cluster.articles.resize(perCluster);
            if (cluster.shares.size() > perCluster) cluster.shares.resize(perCluster);
        }
        const std::string& mainSku = snapshot_.entry(anchor).article->mainSku;
        for (size_t i = 0; i < clusters.size(); ++i) clusters[i].id = mainSku + "#" + std::to_string(i + 1);
        return clusters;
    }
    // 3. Kinds bought together with the anchor's kind.
    for (uint32_t kind : purchases.complementKinds(a.kind, 3)) {
        if (contains(kindsTaken, kind)) continue;
        addCluster(space.text(kind), "purchases", {}, rank(anchor, {&snapshot_.kindMembers(kind)}, Position{}, depth));
    }
    // Once purchases are known, positions themselves are ordered by how well their best
    // product converts with the anchor; before, the curated order stands.
    if (purchases.ready()) {
        auto value = [&](const ComplementCluster& cluster) {
            uint32_t best = cluster.articles.front();
            return purchases.score(anchor, a, best, snapshot_.entry(best).profile);
        };
        std::stable_sort(clusters.begin(), clusters.end(), [&](const auto& x, const auto& y) { return value(x) > value(y); });
    }
    if (clusters.size() > maxClusters) clusters.resize(maxClusters);
    for (auto& cluster : clusters) {
        if (cluster.articles.size() > perCluster) cluster.articles.resize(perCluster);
    }
    const std::string& mainSku = snapshot_.entry(anchor).article->mainSku;
    for (size_t i = 0; i < clusters.size(); ++i) clusters[i].id = mainSku + "#" + std::to_string(i + 1);
    return clusters;
}

std::vector<ComplementCluster> ComplementFinder::learnedClusters(uint32_t anchor, const std::vector<ComplementCluster>& curated,
                                                                 size_t maxClusters) const {
    const ArticleProfile& a = snapshot_.entry(anchor).profile;
    const CoPurchaseModel& purchases = snapshot_.purchases();
    const FeatureSpace& space = snapshot_.space();
    // The curated positions' kinds share half the prior; without any, the kinds' shares are all of it.
    std::vector<std::pair<uint32_t, const ComplementCluster*>> curatedKinds;
    for (const auto& cluster : curated) curatedKinds.emplace_back(snapshot_.entry(cluster.articles.front()).profile.kind, &cluster);
    auto curatedOf = [&](uint32_t kind) -> const ComplementCluster* {
        for (const auto& [k, cluster] : curatedKinds) {
            if (k == kind) return cluster;
        }
        return nullptr;
    };
    auto prior = [&](uint32_t kind) {
        double share = purchases.kindShare(kind);
        if (curatedKinds.empty()) return share;
        return 0.5 * share + (curatedOf(kind) ? 0.5 / static_cast<double>(curatedKinds.size()) : 0.0);
    };
    const double anchorKindOrders = purchases.ordersWithKind(a.kind);
    std::vector<std::pair<double, uint32_t>> kinds;  // smoothed P(kind | anchor's kind), kind
    std::vector<uint32_t> seen{a.kind};
    auto consider = [&](uint32_t kind, double together) {
        if (kind == 0 || std::find(seen.begin(), seen.end(), kind) != seen.end()) return;
        seen.push_back(kind);
        kinds.emplace_back((together + kPriorOrders * prior(kind)) / (anchorKindOrders + kPriorOrders), kind);
    };
    const auto& together = purchases.kindsBoughtWith(a.kind);
    for (const auto& [kind, count] : together) consider(kind, count);
    for (const auto& [kind, cluster] : curatedKinds) consider(kind, 0);  // co-bought ones were taken above
    for (uint32_t kind : purchases.kindsByOrders()) consider(kind, 0);

    // Article-level evidence: what was bought with the anchor. Its look-alikes' co-purchases (at half
    // weight) were measured to hurt: on real baskets they drowned the article's share of its kind (ADR 0073).
    std::unordered_map<uint32_t, double> evidence;
    for (const auto& [partner, count] : purchases.partners(anchor)) evidence[partner] += count;
    std::unordered_map<uint32_t, std::pair<double, std::vector<std::pair<double, uint32_t>>>> evidenceByKind;
    for (const auto& [article, weight] : evidence) {
        auto& [mass, members] = evidenceByKind[snapshot_.entry(article).profile.kind];
        mass += weight;
        members.emplace_back(-weight, article);
    }
    for (auto& [kind, entry] : evidenceByKind) std::sort(entry.second.begin(), entry.second.end());
    // Positions in the order of P(kind | anchor's kind). Ordering them by the anchor's own orders
    // or by their best article's probability was measured worse at the type level (ADR 0073).
    std::sort(kinds.begin(), kinds.end(), [](const auto& x, const auto& y) { return x.first != y.first ? x.first > y.first : x.second < y.second; });

    std::vector<ComplementCluster> clusters;
    std::vector<uint32_t> partnersOfKind;
    // Kinds without a fitting article (another department's) are passed over; a bound keeps an
    // anchor that fits few of them from looking at every kind of the catalog.
    const size_t attempts = 4 * maxClusters + 8;
    for (size_t k = 0; k < kinds.size() && k < attempts && clusters.size() < maxClusters; ++k) {
        const uint32_t kind = kinds[k].second;
        partnersOfKind.clear();
        double kindEvidence = 0;
        if (auto found = evidenceByKind.find(kind); found != evidenceByKind.end()) {
            kindEvidence = found->second.first;
            for (const auto& [weight, article] : found->second.second) partnersOfKind.push_back(article);
        }
        Position position;
        position.evidence = &evidence;
        position.kindEvidence = kindEvidence;
        position.kind = kind;
        // Positions hold one kind each, so no article can appear in two of them.
        std::vector<double> shares;
        auto fresh = rank(anchor, {&partnersOfKind, &purchases.mostBought(kind), &snapshot_.kindMembers(kind)}, position, kClusterDepth, &shares);
        if (fresh.empty()) continue;
        if (const ComplementCluster* curatedCluster = curatedOf(kind))
            clusters.push_back({"", curatedCluster->name, curatedCluster->source, curatedCluster->tags, std::move(fresh), kinds[k].first, std::move(shares)});
        else
            clusters.push_back({"", space.text(kind), "purchases", {}, std::move(fresh), kinds[k].first, std::move(shares)});
    }
    return clusters;
}

}  // namespace svc
