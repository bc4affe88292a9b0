// The ContentStore contract (shared/store/ContentStore.hpp) on every backend. Templates are
// shared by every tenant: on a shared database a test looks only at the ids it wrote.
#include "StoreBackends.hpp"

#include <algorithm>
#include <limits>

namespace svc::contract {
namespace {

// Ids unique per run: a shared database keeps other runs' templates.
std::string uniqueId(const std::string& name) { return name + "-" + std::to_string(::getpid()); }

SetTemplate templateOf(const std::string& id, const std::string& title) {
    SetTemplate setTemplate;
    setTemplate.id = id;
    setTemplate.title = title;
    setTemplate.slots = {{"top", {"Shirts"}, {}, {}}, {"shoes", {"Shoes"}, {"black"}, {"Sneakers"}}};
    return setTemplate;
}

CustomSet customSetOf(const std::string& id, const std::string& title) {
    CustomSet set;
    set.id = id;
    set.title = title;
    set.images = {"https://shop.example/look.jpg"};
    set.skus = {"A-1", "B-1"};
    return set;
}

PhotoSet photoSetOf(const std::string& id, const std::string& title) {
    PhotoSet set;
    set.id = id;
    set.title = title;
    set.images = {"/images/look.jpg"};
    return set;
}

std::optional<SetTemplate> storedTemplate(ContentStore& content, const std::string& id) {
    auto templates = content.templates();
    REQUIRE_MESSAGE(templates, (templates ? "" : templates.error().message));
    CHECK(std::count_if(templates->begin(), templates->end(), [&](const SetTemplate& t) { return t.id == id; }) <= 1);
    for (auto& setTemplate : *templates) {
        if (setTemplate.id == id) return setTemplate;
    }
    return std::nullopt;
}

std::vector<std::string> customIds(ContentStore& content, int64_t tenantId) {
    auto sets = content.customSets(tenantId);
    REQUIRE_MESSAGE(sets, (sets ? "" : sets.error().message));
    std::vector<std::string> ids;
    for (const auto& set : *sets) ids.push_back(set.id + ":" + set.title);
    return ids;
}

int64_t generationOf(ContentStore& content, int64_t tenantId) {
    auto generations = content.generations();
    REQUIRE_MESSAGE(generations, (generations ? "" : generations.error().message));
    auto found = generations->find(tenantId);
    return found == generations->end() ? 0 : found->second;
}

}  // namespace

TEST_CASE("ContentStore: a tenant without content has no sets, no generation and nothing learned") {
    forEachBackend([](Backend& backend) {
        ContentStore& content = backend.storage->content();
        Tenant a = newTenant(*backend.storage, "A");
        CHECK(content.customSets(a.id).value().empty());
        CHECK(content.photoSets(a.id).value().empty());
        CHECK(content.generations().value().count(a.id) == 0);
        CHECK(content.learned().value().count(a.id) == 0);
        CHECK(content.deleteSet(a.id, SetKind::Custom, "none").value() == false);
        CHECK(content.deleteTemplate(uniqueId("no-such-template")).value() == false);
        CHECK(storedTemplate(content, uniqueId("no-such-template")) == std::nullopt);
    });
}

TEST_CASE("ContentStore: a template put twice is replaced, not duplicated; each change bumps the templates' generation") {
    forEachBackend([](Backend& backend) {
        ContentStore& content = backend.storage->content();
        std::string id = uniqueId("casual");
        int64_t generation = generationOf(content, 0);
        CHECK(content.putTemplate(templateOf(id, "First")).value() == true);
        CHECK(content.putTemplate(templateOf(id, "Second")).value() == false);
        CHECK(storedTemplate(content, id) == templateOf(id, "Second"));
        CHECK(generationOf(content, 0) == generation + 2);
        CHECK(content.deleteTemplate(id).value() == true);
        CHECK(content.deleteTemplate(id).value() == false);  // nothing removed: no bump
        CHECK(storedTemplate(content, id) == std::nullopt);
        CHECK(generationOf(content, 0) == generation + 3);
    });
}

TEST_CASE("ContentStore: sets keep their creation order when replaced; tenants and kinds are apart") {
    forEachBackend([](Backend& backend) {
        ContentStore& content = backend.storage->content();
        Tenant a = newTenant(*backend.storage, "A"), b = newTenant(*backend.storage, "B");
        for (const char* id : {"zeta", "alpha", "mid"}) CHECK(content.putCustomSet(a.id, customSetOf(id, "v1")).value() == true);
        CHECK(content.putCustomSet(a.id, customSetOf("alpha", "v2")).value() == false);
        CHECK(content.putCustomSet(b.id, customSetOf("alpha", "theirs")).value() == true);
        CHECK(content.putPhotoSet(a.id, photoSetOf("alpha", "photo")).value() == true);
        CHECK(customIds(content, a.id) == std::vector<std::string>{"zeta:v1", "alpha:v2", "mid:v1"});
        CHECK(customIds(content, b.id) == std::vector<std::string>{"alpha:theirs"});
        auto photos = content.photoSets(a.id).value();
        REQUIRE(photos.size() == 1);
        CHECK(photos[0] == photoSetOf("alpha", "photo"));
        CHECK(content.photoSets(b.id).value().empty());

        CHECK(content.deleteSet(b.id, SetKind::Custom, "zeta").value() == false);  // not b's
        CHECK(content.deleteSet(a.id, SetKind::Custom, "alpha").value() == true);
        CHECK(customIds(content, a.id) == std::vector<std::string>{"zeta:v1", "mid:v1"});
        CHECK(content.photoSets(a.id).value().size() == 1);  // the photo set of the same id stays
        CHECK(customIds(content, b.id) == std::vector<std::string>{"alpha:theirs"});
        // A set deleted and put again is new: it goes last.
        CHECK(content.putCustomSet(a.id, customSetOf("alpha", "v3")).value() == true);
        CHECK(customIds(content, a.id) == std::vector<std::string>{"zeta:v1", "mid:v1", "alpha:v3"});
        // Every change bumps only its tenant's generation: a: 4 puts, 1 delete, 1 put; b: 1 put.
        CHECK(generationOf(content, a.id) == 7);
        CHECK(generationOf(content, b.id) == 1);
    });
}

TEST_CASE("ContentStore: a file is imported whole or not at all") {
    forEachBackend([](Backend& backend) {
        ContentStore& content = backend.storage->content();
        Tenant a = newTenant(*backend.storage, "A");
        std::string templateId = uniqueId("from-file");

        SetFile tenantFileWithTemplate;
        tenantFileWithTemplate.customSets = {customSetOf("first", "t")};
        tenantFileWithTemplate.templates = {templateOf(templateId, "t")};
        auto refused = content.importFile(a.id, tenantFileWithTemplate);
        REQUIRE_FALSE(refused);
        CHECK(refused.error().code == ErrorCode::PermissionDenied);
        CHECK(content.customSets(a.id).value().empty());
        CHECK(storedTemplate(content, templateId) == std::nullopt);
        CHECK(generationOf(content, a.id) == 0);

        SetFile operatorFileWithSets;
        operatorFileWithSets.templates = {templateOf(templateId, "t")};
        operatorFileWithSets.photoSets = {photoSetOf("p", "t")};
        int64_t templatesGeneration = generationOf(content, 0);
        REQUIRE_FALSE(content.importFile(std::nullopt, operatorFileWithSets));
        CHECK(storedTemplate(content, templateId) == std::nullopt);
        CHECK(generationOf(content, 0) == templatesGeneration);

        REQUIRE(content.putCustomSet(a.id, customSetOf("kept", "before")));
        SetFile tenantFile;
        tenantFile.customSets = {customSetOf("kept", "after"), customSetOf("new", "n")};
        tenantFile.photoSets = {photoSetOf("photo", "p")};
        REQUIRE(content.importFile(a.id, tenantFile));
        CHECK(customIds(content, a.id) == std::vector<std::string>{"kept:after", "new:n"});
        CHECK(content.photoSets(a.id).value().size() == 1);
        CHECK(generationOf(content, a.id) == 2);  // the put, then one for the whole file

        SetFile operatorFile;
        operatorFile.templates = {templateOf(templateId, "from the file")};
        REQUIRE(content.importFile(std::nullopt, operatorFile));
        CHECK(storedTemplate(content, templateId) == templateOf(templateId, "from the file"));
        CHECK(generationOf(content, 0) == templatesGeneration + 1);
        REQUIRE(content.deleteTemplate(templateId));
    });
}

TEST_CASE("ContentStore: generations grow per tenant; what was learned is kept per tenant, the last write winning") {
    forEachBackend([](Backend& backend) {
        ContentStore& content = backend.storage->content();
        Tenant a = newTenant(*backend.storage, "A"), b = newTenant(*backend.storage, "B");
        for (int i = 0; i < 3; ++i) REQUIRE(content.bumpGeneration(a.id));
        REQUIRE(content.bumpGeneration(b.id));
        CHECK(generationOf(content, a.id) == 3);
        CHECK(generationOf(content, b.id) == 1);
        REQUIRE(content.recordLearned(a.id, {10, 1'750'000'000}));
        REQUIRE(content.recordLearned(a.id, {4, 0}));  // the last write wins, even when smaller
        REQUIRE(content.recordLearned(b.id, {std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::max()}));
        auto learned = content.learned().value();
        CHECK(learned[a.id].orders == 4);
        CHECK(learned[a.id].lastOrderReceivedAt == 0);
        CHECK(learned[b.id].orders == std::numeric_limits<int64_t>::max());
        CHECK(learned[b.id].lastOrderReceivedAt == std::numeric_limits<int64_t>::max());
    });
}

TEST_CASE("ContentStore: hostile text within the sets' limits is read back byte for byte") {
    forEachBackend([](Backend& backend) {
        ContentStore& content = backend.storage->content();
        Tenant a = newTenant(*backend.storage, "A");
        std::vector<CustomSet> sets;
        std::vector<SetTemplate> templates;
        size_t i = 0;
        for (const auto& text : hostileStrings()) {
            // The documented limits (sets/SetJson.cpp): titles 200 bytes, descriptions 2000, list items 512.
            CustomSet set = customSetOf("hostile-" + std::to_string(i), text.substr(0, 200));
            set.description = text.substr(0, 2000);
            set.tags = {text.substr(0, 512)};
            set.skus = {text.substr(0, 512), "B-1"};
            sets.push_back(set);
            REQUIRE(content.putCustomSet(a.id, set));
            SetTemplate setTemplate = templateOf(uniqueId("hostile-" + std::to_string(i)), text.substr(0, 2000));
            setTemplate.tags = {text.substr(0, 512)};
            setTemplate.slots[0].categories = {text.substr(0, 512)};
            setTemplate.slots[1].synonyms = {text.substr(0, 512)};
            templates.push_back(setTemplate);
            REQUIRE(content.putTemplate(setTemplate));
            ++i;
        }
        auto stored = content.customSets(a.id);
        REQUIRE_MESSAGE(stored, (stored ? "" : stored.error().message));
        CHECK(*stored == sets);
        for (const auto& setTemplate : templates) {
            CHECK(storedTemplate(content, setTemplate.id) == setTemplate);
            REQUIRE(content.deleteTemplate(setTemplate.id));
        }
    });
}

}  // namespace svc::contract
