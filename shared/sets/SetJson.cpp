#include "sets/SetJson.hpp"

#include <set>

#include "recommend/ColorFamily.hpp"
#include "recommend/Department.hpp"
#include "text/BoundedJson.hpp"
#include "text/HtmlEscape.hpp"
#include "text/Utf8.hpp"

namespace svc {
namespace {

using nlohmann::json;

constexpr size_t kMaxText = 2000;
constexpr size_t kMaxListItems = 100;

std::string at(const std::string& where, const std::string& field) { return where.empty() ? field : where + "." + field; }

Status onlyKnownKeys(const json& object, const std::string& where, std::initializer_list<const char*> known) {
    if (!object.is_object()) return Error::invalidArgument((where.empty() ? "body" : where) + ": must be a JSON object");
    for (const auto& [key, value] : object.items()) {
        bool found = false;
        for (const char* name : known) found = found || key == name;
        if (!found) return Error::invalidArgument(at(where, key) + ": unknown field");
    }
    return {};
}

Result<std::string> text(const json& object, const std::string& where, const char* field, bool required, size_t maxLength = kMaxText) {
    auto found = object.find(field);
    if (found == object.end() || found->is_null()) {
        if (required) return Error::invalidArgument(at(where, field) + ": required");
        return std::string();
    }
    if (!found->is_string()) return Error::invalidArgument(at(where, field) + ": must be a string");
    auto value = found->get<std::string>();
    if (required && value.empty()) return Error::invalidArgument(at(where, field) + ": must not be empty");
    if (value.size() > maxLength) return Error::invalidArgument(at(where, field) + ": longer than " + std::to_string(maxLength) + " bytes");
    if (findInvalidUtf8(value) != std::string_view::npos) return Error::invalidArgument(at(where, field) + ": not valid UTF-8");
    return value;
}

Result<std::string> identifier(const json& object, const std::string& where) {
    auto id = text(object, where, "id", true, 128);
    if (!id) return id;
    for (char c : *id) {
        bool allowed = std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == ':';
        if (!allowed) return Error::invalidArgument(at(where, "id") + ": only letters, digits and - _ . : are allowed");
    }
    return id;
}

// A list of non-empty strings; `check` may refuse an item with a reason.
template <typename Check>
Result<std::vector<std::string>> textList(const json& object, const std::string& where, const char* field, bool required, Check check) {
    auto found = object.find(field);
    std::vector<std::string> items;
    if (found == object.end() || found->is_null()) {
        if (required) return Error::invalidArgument(at(where, field) + ": required");
        return items;
    }
    if (!found->is_array()) return Error::invalidArgument(at(where, field) + ": must be an array of strings");
    if (required && found->empty()) return Error::invalidArgument(at(where, field) + ": must not be empty");
    if (found->size() > kMaxListItems)
        return Error::invalidArgument(at(where, field) + ": more than " + std::to_string(kMaxListItems) + " items");
    std::set<std::string> seen;
    for (size_t i = 0; i < found->size(); ++i) {
        const auto& item = (*found)[i];
        std::string place = at(where, field) + "[" + std::to_string(i) + "]";
        if (!item.is_string() || item.get<std::string>().empty()) return Error::invalidArgument(place + ": must be a non-empty string");
        auto value = item.get<std::string>();
        if (value.size() > 512 || findInvalidUtf8(value) != std::string_view::npos) return Error::invalidArgument(place + ": longer than 512 bytes or not UTF-8");
        if (std::string reason = check(value); !reason.empty()) return Error::invalidArgument(place + ": " + reason);
        if (!seen.insert(value).second) return Error::invalidArgument(place + ": \"" + value + "\" is listed twice");
        items.push_back(std::move(value));
    }
    return items;
}

std::string anyText(const std::string&) { return ""; }

// Moves a parsed value into its field, or hands the error on: one line per field below.
template <typename T>
Status into(Result<T> parsed, T& field) {
    if (!parsed) return parsed.error();
    field = std::move(*parsed);
    return {};
}
// Absolute http(s) URLs, or paths on the shop's own host ("/images/look.jpg").
std::string httpUrl(const std::string& value) {
    bool rootRelative = value.size() > 1 && value[0] == '/' && value[1] != '/';
    bool absolute = value.rfind("http://", 0) == 0 || value.rfind("https://", 0) == 0;
    return safeUrl(value).empty() || !(rootRelative || absolute) ? "must be an http(s) URL or a path starting with /" : "";
}

}  // namespace

Result<SetTemplate> setTemplateFromJson(const json& object, const std::string& where) {
    if (auto status = onlyKnownKeys(object, where, {"id", "title", "tags", "departments", "occasions", "slots"}); !status)
        return status.error();
    SetTemplate result;
    if (auto status = into(identifier(object, where), result.id); !status) return status.error();
    if (auto status = into(text(object, where, "title", false), result.title); !status) return status.error();
    if (auto status = into(textList(object, where, "tags", false, anyText), result.tags); !status) return status.error();
    auto departments = textList(object, where, "departments", false, [](const std::string& value) {
        return departmentFromText(value) == Department::Unknown ? "not a department (Men, Women, Unisex, Boys, Girls, Kids)" : "";
    });
    if (!departments) return departments.error();
    result.departments = *departments;
    if (auto status = into(textList(object, where, "occasions", false, anyText), result.occasions); !status) return status.error();
    auto slots = object.find("slots");
    if (slots == object.end() || !slots->is_array() || slots->size() < 2)
        return Error::invalidArgument(at(where, "slots") + ": must be an array of at least two slots");
    if (slots->size() > 12) return Error::invalidArgument(at(where, "slots") + ": more than 12 slots");
    std::set<std::string> names;
    for (size_t i = 0; i < slots->size(); ++i) {
        std::string place = at(where, "slots") + "[" + std::to_string(i) + "]";
        const auto& slot = (*slots)[i];
        if (auto status = onlyKnownKeys(slot, place, {"name", "categories", "colorFamilies", "synonyms"}); !status) return status.error();
        TemplateSlot parsed;
        auto name = text(slot, place, "name", true, 64);
        if (!name) return name.error();
        if (!names.insert(*name).second) return Error::invalidArgument(at(place, "name") + ": \"" + *name + "\" is used by another slot");
        parsed.name = *name;
        if (auto status = into(textList(slot, place, "categories", true, anyText), parsed.categories); !status) return status.error();
        auto families = textList(slot, place, "colorFamilies", false, [](const std::string& value) {
            return colorFamilyFromText(value) == ColorFamily::Unknown ? "not a colour family (black, white, grey, beige, brown, blue, ...)" : "";
        });
        if (!families) return families.error();
        parsed.colorFamilies = *families;
        if (auto status = into(textList(slot, place, "synonyms", false, anyText), parsed.synonyms); !status) return status.error();
        result.slots.push_back(std::move(parsed));
    }
    return result;
}

Result<CustomSet> customSetFromJson(const json& object, const std::string& where) {
    if (auto status = onlyKnownKeys(object, where, {"id", "title", "description", "tags", "images", "skus"}); !status)
        return status.error();
    CustomSet result;
    if (auto status = into(identifier(object, where), result.id); !status) return status.error();
    if (auto status = into(text(object, where, "title", true, 200), result.title); !status) return status.error();
    if (auto status = into(text(object, where, "description", false), result.description); !status) return status.error();
    if (auto status = into(textList(object, where, "tags", false, anyText), result.tags); !status) return status.error();
    if (auto status = into(textList(object, where, "images", false, httpUrl), result.images); !status) return status.error();
    if (auto status = into(textList(object, where, "skus", true, anyText), result.skus); !status) return status.error();
    return result;
}

Result<PhotoSet> photoSetFromJson(const json& object, const std::string& where) {
    if (auto status = onlyKnownKeys(object, where, {"id", "title", "tags", "images"}); !status) return status.error();
    PhotoSet result;
    if (auto status = into(identifier(object, where), result.id); !status) return status.error();
    if (auto status = into(text(object, where, "title", true, 200), result.title); !status) return status.error();
    if (auto status = into(textList(object, where, "tags", false, anyText), result.tags); !status) return status.error();
    if (auto status = into(textList(object, where, "images", true, httpUrl), result.images); !status) return status.error();
    return result;
}

json toJson(const SetTemplate& setTemplate) {
    json slots = json::array();
    for (const auto& slot : setTemplate.slots) {
        json entry{{"name", slot.name}, {"categories", slot.categories}, {"colorFamilies", slot.colorFamilies}};
        if (!slot.synonyms.empty()) entry["synonyms"] = slot.synonyms;
        slots.push_back(std::move(entry));
    }
    return {{"id", setTemplate.id}, {"title", setTemplate.title}, {"tags", setTemplate.tags},
            {"departments", setTemplate.departments}, {"occasions", setTemplate.occasions}, {"slots", slots}};
}

json toJson(const CustomSet& set) {
    return {{"id", set.id}, {"title", set.title}, {"description", set.description}, {"tags", set.tags}, {"images", set.images}, {"skus", set.skus}};
}

json toJson(const PhotoSet& set) { return {{"id", set.id}, {"title", set.title}, {"tags", set.tags}, {"images", set.images}}; }

Result<SetFile> setFileFromJson(const std::string& text) {
    auto read = BoundedJson::parse(text, "file");
    if (!read) return read.error();
    const json& parsed = *read;
    if (auto status = onlyKnownKeys(parsed, "", {"templates", "customSets", "photoSets"}); !status) return status.error();
    SetFile file;
    // One array of the file: every item parsed with `parse` into `out`, ids unique within the array.
    auto readArray = [&](const char* key, auto parse, auto& out) -> Status {
        auto found = parsed.find(key);
        if (found == parsed.end()) return {};
        if (!found->is_array()) return Error::invalidArgument(std::string(key) + ": must be an array");
        std::set<std::string> ids;
        for (size_t i = 0; i < found->size(); ++i) {
            std::string place = std::string(key) + "[" + std::to_string(i) + "]";
            auto item = parse((*found)[i], place);
            if (!item) return item.error();
            if (!ids.insert(item->id).second) return Error::invalidArgument(place + ".id: \"" + item->id + "\" appears twice in the file");
            out.push_back(std::move(*item));
        }
        return {};
    };
    if (auto status = readArray("templates", setTemplateFromJson, file.templates); !status) return status.error();
    if (auto status = readArray("customSets", customSetFromJson, file.customSets); !status) return status.error();
    if (auto status = readArray("photoSets", photoSetFromJson, file.photoSets); !status) return status.error();
    return file;
}

}  // namespace svc
