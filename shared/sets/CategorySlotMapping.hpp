#pragma once
// A tenant's mapping of its own categories onto the content pool's slots (ADR 0075): "Skinny
// Jeans" fills "bottom" wherever a template has a slot of that name, as if the template listed
// it. A mapped category leaves the slots that list it under another name; an unmapped one
// keeps today's matching. Applied to the templates before the tenant's content is built, so
// the engine's slot matching is unchanged.
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/Result.hpp"
#include "sets/SetTemplate.hpp"

namespace svc {

struct CategorySlotEntry {
    std::string category;  // as the feed writes it (matched by TextTokenizer::key)
    std::string slot;      // a slot name of the content pool

    bool operator==(const CategorySlotEntry&) const = default;
};

class CategorySlotMapping {
public:
    static constexpr size_t kMaxEntries = 2000;
    static constexpr size_t kMaxCategoryBytes = 256;

    CategorySlotMapping() = default;
    explicit CategorySlotMapping(std::vector<CategorySlotEntry> entries) : entries_(std::move(entries)) {}
    const std::vector<CategorySlotEntry>& entries() const { return entries_; }
    bool empty() const { return entries_.empty(); }

    // The templates as this tenant's content reads them.
    std::vector<SetTemplate> applyTo(const std::vector<SetTemplate>& templates) const;

    // The operator's {"entries": [{"category": ..., "slot": ...}]}. Refused, naming the field
    // ("entries[2].slot"): a slot no template has, a category `categoryKnown` does not know (by
    // key), a category given twice, anything not text.
    static Result<CategorySlotMapping> fromJson(const nlohmann::json& body, const std::vector<SetTemplate>& templates,
                                                const std::function<bool(const std::string& key)>& categoryKnown);
    nlohmann::json toJson() const;

    // Slot names of the templates, each once, in the order the templates name them.
    static std::vector<std::string> slotNames(const std::vector<SetTemplate>& templates);

private:
    std::vector<CategorySlotEntry> entries_;
};

}  // namespace svc
