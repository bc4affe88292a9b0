#include "recommend/ComplementFinder.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "recommend/TextTokenizer.hpp"

namespace svc {
namespace {

bool listsAny(const std::vector<uint32_t>& keys, const std::vector<std::string>& categories, const FeatureSpace& space) {
    for (const auto& category : categories) {
        uint32_t key = space.find(TextTokenizer::key(category));
        if (key != 0 && std::find(keys.begin(), keys.end(), key) != keys.end()) return true;
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

bool templateFits(const SetTemplate& setTemplate, const ArticleProfile& anchor, const FeatureSpace& space) {
    if (!setTemplate.departments.empty() && anchor.department != Department::Unknown) {
        bool any = false;
        for (const auto& name : setTemplate.departments) any = any || departmentsCompatible(departmentFromText(name), anchor.department);
        if (!any) return false;
    }
    if (!setTemplate.occasions.empty() && anchor.occasion != 0) {
        bool any = false;
        for (const auto& name : setTemplate.occasions) {
            // An occasion this catalog never mentions has no id: it matches nothing, not everything.
            uint32_t id = space.find(FeatureSpace::occasionKey(name));
            any = any || (id != 0 && space.occasionsCompatible(id, anchor.occasion));
        }
        if (!any) return false;
    }
    return true;
}

uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

}  // namespace

std::vector<uint32_t> ComplementFinder::rank(uint32_t anchor, const std::vector<uint32_t>& pool, const TemplateSlot* slot,
                                             const std::vector<std::string>* occasions, const std::vector<std::string>* templateDepartments,
                                             size_t limit) const {
    const FeatureSpace& space = snapshot_.space();
    const ArticleProfile& a = snapshot_.entry(anchor).profile;
    const CoPurchaseModel& purchases = snapshot_.purchases();
    std::vector<ColorFamily> preferred;
    if (slot) {
        for (const auto& name : slot->colorFamilies) preferred.push_back(colorFamilyFromText(name));
    }
    std::vector<uint32_t> occasionIds;
    if (occasions) {
        for (const auto& name : *occasions) {
            if (uint32_t id = space.find(FeatureSpace::occasionKey(name))) occasionIds.push_back(id);
        }
    }
    bool occasionsRequired = occasions && !occasions->empty();
    std::vector<Department> departments;
    if (templateDepartments) {
        for (const auto& name : *templateDepartments) departments.push_back(departmentFromText(name));
    }
    struct Scored {
        double score;
        uint32_t article;
    };
    std::vector<Scored> scored;
    size_t scanned = 0;
    for (uint32_t candidate : pool) {
        if (scanned >= kScanLimit) break;
        const ArticleEntry& entry = snapshot_.entry(candidate);
        const ArticleProfile& b = entry.profile;
        if (!snapshot_.available(candidate) || candidate == anchor || b.kind == a.kind || b.model == a.model) continue;
        if (!departmentFits(a.department, b.department)) continue;
        // Within a template, the template's departments: a Unisex anchor never gets a set
        // mixing men's shoes with a women's bag.
        if (!departments.empty() && b.department != Department::Unknown && b.department != Department::Unisex &&
            std::find(departments.begin(), departments.end(), b.department) == departments.end())
            continue;
        if (!space.occasionsCompatible(a.occasion, b.occasion)) continue;
        if (occasionsRequired && b.occasion != 0 &&
            std::none_of(occasionIds.begin(), occasionIds.end(), [&](uint32_t id) { return space.occasionsCompatible(id, b.occasion); }))
            continue;
        ++scanned;
        double score = colorHarmony(a.colorFamily, b.colorFamily);
        if (!preferred.empty() && std::find(preferred.begin(), preferred.end(), b.colorFamily) != preferred.end()) score += 0.5;
        if (a.occasion != 0 && a.occasion == b.occasion) score += 0.5;
        if (departmentsEqual(a.department, b.department)) score += 0.25;
        if (a.price > 0 && b.price > 0) {
            // Items of a similar price tier sell together more often than a bargain with a luxury piece.
            double ratio = std::fabs(std::log(static_cast<double>(a.price) / static_cast<double>(b.price)));
            score += 0.5 * std::max(0.0, 1.0 - ratio / 2);
        }
        score += purchases.score(anchor, a, candidate, b);
        // A small per-anchor jitter: neighbouring anchors get varied sets among equals.
        score += 1e-3 * static_cast<double>(mix((static_cast<uint64_t>(anchor) << 32) ^ candidate) % 1000) / 1000.0;
        scored.push_back({score, candidate});
    }
    size_t keep = std::min(limit, scored.size());
    std::partial_sort(scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(keep), scored.end(),
                      [](const Scored& x, const Scored& y) { return x.score != y.score ? x.score > y.score : x.article < y.article; });
    std::vector<uint32_t> result;
    for (size_t i = 0; i < keep; ++i) result.push_back(scored[i].article);
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
    std::set<std::string> positionsTaken;  // slot names and kind texts already in a cluster
    std::set<uint32_t> articlesTaken;
    std::set<uint32_t> kindsTaken{a.kind};  // a kind fills one position only
    auto addCluster = [&](std::string name, std::string source, std::vector<std::string> tags, std::vector<uint32_t> articles) {
        std::vector<uint32_t> fresh;
        for (uint32_t article : articles) {
            if (kindsTaken.count(snapshot_.entry(article).profile.kind)) continue;  // an earlier position's kind
            if (articlesTaken.insert(article).second) fresh.push_back(article);
        }
        if (fresh.empty() || !positionsTaken.insert(name).second) return;
        for (uint32_t article : fresh) kindsTaken.insert(snapshot_.entry(article).profile.kind);
        clusters.push_back({"", std::move(name), std::move(source), std::move(tags), std::move(fresh)});
    };

    // 1. Templates whose slots include the anchor's category, fitting its department and occasion.
    for (const SlotPool& pool : snapshot_.slotPools()) {
        const SetTemplate& setTemplate = templates[pool.templateIndex];
        bool anchorSlotFound = false;
        for (const auto& slot : setTemplate.slots) anchorSlotFound = anchorSlotFound || listsAny(a.categoryKeys, slot.categories, space);
        if (!anchorSlotFound || !templateFits(setTemplate, a, space)) continue;
        const TemplateSlot& slot = setTemplate.slots[pool.slotIndex];
        if (listsAny(a.categoryKeys, slot.categories, space)) continue;  // the anchor's own position
        addCluster(slot.name, "template:" + setTemplate.id, setTemplate.tags,
                   rank(anchor, pool.articles, &slot, &setTemplate.occasions, &setTemplate.departments, depth));
    }
    // 2. Kinds the operator put together with the anchor's kind in custom sets.
    for (uint32_t kind : snapshot_.customSetCompanions(a.kind)) {
        if (kindsTaken.count(kind)) continue;
        addCluster(space.text(kind), "custom-sets", {}, rank(anchor, snapshot_.kindMembers(kind), nullptr, nullptr, nullptr, depth));
    }
    // 3. Kinds bought together with the anchor's kind.
    const CoPurchaseModel& purchases = snapshot_.purchases();
    for (uint32_t kind : purchases.complementKinds(a.kind, 3)) {
        if (kindsTaken.count(kind)) continue;
        addCluster(space.text(kind), "purchases", {}, rank(anchor, snapshot_.kindMembers(kind), nullptr, nullptr, nullptr, depth));
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

}  // namespace svc
