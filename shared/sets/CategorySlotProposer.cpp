#include "sets/CategorySlotProposer.hpp"

#include <algorithm>
#include <cmath>

#include "recommend/Department.hpp"
#include "recommend/TextTokenizer.hpp"

namespace svc {
namespace {

bool endsWith(const std::string& text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A compound's head must be this long to count ("sweatpant" ends in "pant"; "cap" would match "recap").
constexpr size_t kMinimumHeadLength = 4;
// A word found only as the head of a compound counts for this much of a whole word.
constexpr double kCompoundWeight = 0.8;
// Words before the last one of a level ("Skinny" of "Skinny Jeans") usually qualify the last.
constexpr double kModifierWeight = 0.7;
// A level above the category counts for this much, halving again each level further up.
constexpr double kParentWeight = 0.6;

void normalise(std::vector<double>& counts) {
    double total = 0;
    for (double count : counts) total += count;
    if (total > 0) {
        for (double& count : counts) count /= total;
    }
}

}  // namespace

std::string CategorySlotProposer::fold(std::string token) {
    // TextTokenizer drops a plural "s" unless the word ends in "ss", so "dresses" becomes
    // "dresse" and "accessories" "accessorie": fold those onto the singular too.
    if (endsWith(token, "sse") || endsWith(token, "che") || endsWith(token, "she") || endsWith(token, "xe")) token.pop_back();
    else if (token.size() > 4 && endsWith(token, "ie")) token.replace(token.size() - 2, 2, "y");
    return token;
}

CategorySlotProposer::CategorySlotProposer(const std::vector<SetTemplate>& templates) {
    for (const auto& setTemplate : templates) {
        for (const auto& slot : setTemplate.slots) {
            if (std::find(slots_.begin(), slots_.end(), slot.name) == slots_.end()) slots_.push_back(slot.name);
        }
    }
    auto countWords = [&](std::string_view text, size_t slot) {
        for (auto& token : TextTokenizer::tokens(text)) {
            std::string word = fold(std::move(token));
            if (departmentFromToken(word) != Department::Unknown) continue;
            auto& counts = wordShares_[word];
            counts.resize(slots_.size(), 0.0);
            counts[slot] += 1;
        }
    };
    for (const auto& setTemplate : templates) {
        for (const auto& slot : setTemplate.slots) {
            size_t index = static_cast<size_t>(std::find(slots_.begin(), slots_.end(), slot.name) - slots_.begin());
            countWords(slot.name, index);
            for (const auto& synonym : slot.synonyms) countWords(synonym, index);
            for (const auto& category : slot.categories) {
                countWords(category, index);
                auto& counts = listedShares_[fold(TextTokenizer::key(category))];
                counts.resize(slots_.size(), 0.0);
                counts[index] += 1;
            }
        }
    }
    for (auto& [word, counts] : wordShares_) {
        counts.resize(slots_.size(), 0.0);
        normalise(counts);
        if (word.size() >= kMinimumHeadLength) suffixWords_.push_back(word);
    }
    std::sort(suffixWords_.begin(), suffixWords_.end());
    for (auto& [key, counts] : listedShares_) {
        counts.resize(slots_.size(), 0.0);
        normalise(counts);
    }
}

std::vector<double> CategorySlotProposer::shares(const std::string& word) const {
    if (auto found = wordShares_.find(word); found != wordShares_.end()) return found->second;
    // The head of a compound: the longest pool word the word ends with ("sweatpant": "pant").
    const std::string* head = nullptr;
    for (const auto& candidate : suffixWords_) {
        if (candidate.size() < word.size() && endsWith(word, candidate) && (!head || candidate.size() > head->size())) head = &candidate;
    }
    std::vector<double> result(slots_.size(), 0.0);
    if (!head) return result;
    const auto& found = wordShares_.at(*head);
    for (size_t s = 0; s < result.size(); ++s) result[s] = kCompoundWeight * found[s];
    return result;
}

std::vector<double> CategorySlotProposer::scoreLevel(const std::string& level) const {
    std::vector<double> best(slots_.size(), 0.0);
    std::vector<std::string> words;
    for (auto& token : TextTokenizer::tokens(level)) {
        std::string word = fold(std::move(token));
        if (departmentFromToken(word) == Department::Unknown) words.push_back(std::move(word));
    }
    // The last words of a long name are its head; the rest are qualifiers.
    if (words.size() > kMaxWordsPerLevel) words.erase(words.begin(), words.end() - static_cast<std::ptrdiff_t>(kMaxWordsPerLevel));
    for (size_t w = 0; w < words.size(); ++w) {
        double weight = w + 1 == words.size() ? 1.0 : kModifierWeight;
        auto wordShares = shares(words[w]);
        for (size_t s = 0; s < best.size(); ++s) best[s] = std::max(best[s], weight * wordShares[s]);
    }
    return best;
}

std::optional<SlotProposal> CategorySlotProposer::propose(const CatalogCategory& category) const {
    if (slots_.empty()) return std::nullopt;
    std::vector<double> scores(slots_.size(), 0.0);
    std::vector<const char*> basis(slots_.size(), "name");
    auto take = [&](const std::vector<double>& levelScores, double weight, const char* why) {
        for (size_t s = 0; s < scores.size(); ++s) {
            if (weight * levelScores[s] > scores[s]) {
                scores[s] = weight * levelScores[s];
                basis[s] = why;
            }
        }
    };
    if (auto listed = listedShares_.find(fold(TextTokenizer::key(category.name))); listed != listedShares_.end()) take(listed->second, 1.0, "listed");
    take(scoreLevel(category.name), 1.0, "name");
    double weight = kParentWeight;
    for (const auto& parent : category.parents) {
        take(scoreLevel(parent), weight, "path");
        weight /= 2;
    }
    size_t best = 0;
    for (size_t s = 1; s < scores.size(); ++s) {
        if (scores[s] > scores[best]) best = s;
    }
    if (scores[best] < kMinimumScore) return std::nullopt;
    double second = 0;
    for (size_t s = 0; s < scores.size(); ++s) {
        if (s != best) second = std::max(second, scores[s]);
    }
    double confidence = std::clamp(scores[best] - 0.5 * second, 0.0, 1.0);
    return SlotProposal{slots_[best], std::round(confidence * 100) / 100, basis[best]};
}

}  // namespace svc
