#include "sets/CategorySlotMapping.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "recommend/TextTokenizer.hpp"
#include "text/Utf8.hpp"

namespace svc {

std::vector<std::string> CategorySlotMapping::slotNames(const std::vector<SetTemplate>& templates) {
    std::vector<std::string> names;
    for (const auto& setTemplate : templates) {
        for (const auto& slot : setTemplate.slots) {
            if (std::find(names.begin(), names.end(), slot.name) == names.end()) names.push_back(slot.name);
        }
    }
    return names;
}

std::vector<SetTemplate> CategorySlotMapping::applyTo(const std::vector<SetTemplate>& templates) const {
    if (entries_.empty()) return templates;
    std::unordered_map<std::string, const CategorySlotEntry*> byKey;
    for (const auto& entry : entries_) byKey.emplace(TextTokenizer::key(entry.category), &entry);
    std::vector<SetTemplate> mapped = templates;
    for (auto& setTemplate : mapped) {
        for (auto& slot : setTemplate.slots) {
            // A mapped category is where the operator put it, and nowhere else under its own name.
            slot.categories.erase(std::remove_if(slot.categories.begin(), slot.categories.end(),
                                                 [&](const std::string& category) {
                                                     auto found = byKey.find(TextTokenizer::key(category));
                                                     return found != byKey.end() && found->second->slot != slot.name;
                                                 }),
                                  slot.categories.end());
            for (const auto& entry : entries_) {
                if (entry.slot != slot.name) continue;
                std::string key = TextTokenizer::key(entry.category);
                bool listed = std::any_of(slot.categories.begin(), slot.categories.end(),
                                          [&](const std::string& category) { return TextTokenizer::key(category) == key; });
                if (!listed) slot.categories.push_back(entry.category);
            }
        }
    }
    return mapped;
}

Result<CategorySlotMapping> CategorySlotMapping::fromJson(const nlohmann::json& body, const std::vector<SetTemplate>& templates,
                                                          const std::function<bool(const std::string& key)>& categoryKnown) {
    if (!body.is_object()) return Error::invalidArgument("body: must be an object with entries");
    for (const auto& [name, value] : body.items()) {
        if (name != "entries") return Error::invalidArgument(name + ": unknown field (expected entries)");
    }
    auto list = body.find("entries");
    if (list == body.end() || !list->is_array()) return Error::invalidArgument("entries: must be an array of {category, slot}");
    if (list->size() > kMaxEntries) return Error::invalidArgument("entries: more than " + std::to_string(kMaxEntries) + " entries");
    auto slots = slotNames(templates);
    std::set<std::string> keys;
    std::vector<CategorySlotEntry> entries;
    for (size_t i = 0; i < list->size(); ++i) {
        const auto& item = (*list)[i];
        std::string place = "entries[" + std::to_string(i) + "]";
        if (!item.is_object()) return Error::invalidArgument(place + ": must be an object with category and slot");
        for (const auto& [name, value] : item.items()) {
            if (name != "category" && name != "slot") return Error::invalidArgument(place + "." + name + ": unknown field (expected category, slot)");
        }
        CategorySlotEntry entry;
        for (auto [field, target] : {std::pair<const char*, std::string*>{"category", &entry.category}, {"slot", &entry.slot}}) {
            auto value = item.find(field);
            if (value == item.end() || !value->is_string() || value->get<std::string>().empty())
                return Error::invalidArgument(place + "." + field + ": must be a non-empty string");
            *target = value->get<std::string>();
            if (target->size() > kMaxCategoryBytes || findInvalidUtf8(*target) != std::string_view::npos)
                return Error::invalidArgument(place + "." + field + ": longer than " + std::to_string(kMaxCategoryBytes) + " bytes or not UTF-8");
        }
        if (std::find(slots.begin(), slots.end(), entry.slot) == slots.end())
            return Error::invalidArgument(place + ".slot: no template has a slot named \"" + entry.slot + "\"");
        std::string key = TextTokenizer::key(entry.category);
        if (key.empty() || !categoryKnown(key))
            return Error::invalidArgument(place + ".category: the tenant's catalog has no category \"" + entry.category + "\"");
        if (!keys.insert(key).second) return Error::invalidArgument(place + ".category: \"" + entry.category + "\" is mapped twice");
        entries.push_back(std::move(entry));
    }
    return CategorySlotMapping(std::move(entries));
}

nlohmann::json CategorySlotMapping::toJson() const {
    nlohmann::json entries = nlohmann::json::array();
    for (const auto& entry : entries_) entries.push_back({{"category", entry.category}, {"slot", entry.slot}});
    return {{"entries", entries}};
}

}  // namespace svc
