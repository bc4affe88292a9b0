#pragma once
// svc's proposal of which content-pool slot a shop's category fills (ADR 0075), for the
// operator to accept or change; never applied on its own. Read from the content pool only:
// the slots' names, the categories the templates list and the slots' synonyms, each a
// vocabulary of tokens (TextTokenizer, with plural forms folded). A category is scored
// against each slot by its name first, then by the levels above it in its path, nearest
// first; a word shared by several slots counts for each in proportion to how often the pool
// uses it there. Nothing in it is tuned to one catalog.
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "recommend/CatalogCategories.hpp"
#include "sets/SetTemplate.hpp"

namespace svc {

struct SlotProposal {
    std::string slot;
    double confidence = 0;  // 0..1: how strongly the best slot wins over the runner-up
    // "listed": a template lists the category by name; "name": words of its name; "path":
    // words of a level above it.
    std::string basis;
};

class CategorySlotProposer {
public:
    // Proposals weaker than this are not made: the category keeps today's matching.
    static constexpr double kMinimumScore = 0.3;
    // Words read per level: a hostile name of thousands of words costs no more than this.
    static constexpr size_t kMaxWordsPerLevel = 16;

    explicit CategorySlotProposer(const std::vector<SetTemplate>& templates);
    std::optional<SlotProposal> propose(const CatalogCategory& category) const;
    // The vocabulary form of a word: TextTokenizer's token with plural forms it keeps folded
    // ("dresses" and "dress", "accessories" and "accessory", "watches" and "watch").
    static std::string fold(std::string token);

private:
    // Per slot name: the share of the pool's uses of a word that are this slot's.
    std::vector<double> shares(const std::string& word) const;
    std::vector<double> scoreLevel(const std::string& level) const;

    std::vector<std::string> slots_;
    std::unordered_map<std::string, std::vector<double>> wordShares_;    // word -> share per slot
    std::unordered_map<std::string, std::vector<double>> listedShares_;  // category key -> share per slot
    std::vector<std::string> suffixWords_;  // words long enough to be the head of a compound ("sweatpant")
};

}  // namespace svc
