#include "recommend/ContentSnapshot.hpp"

#include <unordered_set>

namespace svc {

std::optional<uint32_t> ContentSnapshot::find(std::string_view skuOrMainSku) const {
    auto found = bySku_->find(std::string(skuOrMainSku));
    if (found == bySku_->end()) return std::nullopt;
    return found->second;
}

std::optional<uint32_t> ContentSnapshot::indexOfMainSku(const std::string& mainSku) const {
    auto live = bySku_->find(mainSku);
    if (live != bySku_->end() && articles_[live->second].article->mainSku == mainSku) return live->second;
    auto gone = deletedIndex_->find(mainSku);
    if (gone != deletedIndex_->end()) return gone->second;
    return std::nullopt;
}

std::vector<uint32_t> ContentSnapshot::similar(uint32_t anchor, size_t limit) const {
    std::vector<uint32_t> result;
    std::vector<uint32_t> sameModelLater;
    std::unordered_set<uint32_t> modelsTaken{articles_[anchor].profile.model};
    for (const Neighbour& neighbour : similarList(anchor)) {
        uint32_t candidate = neighbour.article;
        if (result.size() >= limit) break;
        const ArticleEntry& entry = articles_[candidate];
        if (candidate == anchor || !available(candidate)) continue;
        if (!modelsTaken.insert(entry.profile.model).second) {
            sameModelLater.push_back(candidate);
            continue;
        }
        result.push_back(candidate);
    }
    // Further colours of a model only when the list has nothing else to offer.
    for (uint32_t candidate : sameModelLater) {
        if (result.size() >= limit) break;
        result.push_back(candidate);
    }
    return result;
}

const std::vector<uint32_t>& ContentSnapshot::kindMembers(uint32_t kind) const {
    static const std::vector<uint32_t> none;
    auto found = kindMembers_.find(kind);
    return found == kindMembers_.end() ? none : found->second;
}

const std::vector<uint32_t>& ContentSnapshot::customSetCompanions(uint32_t kind) const {
    static const std::vector<uint32_t> none;
    auto found = customCompanions_.find(kind);
    return found == customCompanions_.end() ? none : found->second;
}

const ResolvedCustomSet* ContentSnapshot::customSet(std::string_view id) const {
    for (const auto& set : customSets_) {
        if (set.definition.id == id) return &set;
    }
    return nullptr;
}

std::vector<const ResolvedCustomSet*> ContentSnapshot::customSetsWith(uint32_t article) const {
    std::vector<const ResolvedCustomSet*> sets;
    auto found = customSetsByArticle_.find(article);
    if (found == customSetsByArticle_.end()) return sets;
    for (uint32_t index : found->second) sets.push_back(&customSets_[index]);
    return sets;
}

}  // namespace svc
