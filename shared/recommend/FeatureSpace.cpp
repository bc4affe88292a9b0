#include "recommend/FeatureSpace.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "recommend/CategoryPath.hpp"
#include "recommend/TextTokenizer.hpp"

namespace svc {
namespace {

// The content-pool columns (spec "Content-pool fields") and common English names.
const std::string* property(const Product& product, std::initializer_list<const char*> names) {
    for (const char* name : names) {
        auto found = product.properties.find(name);
        if (found != product.properties.end() && !found->second.empty()) return &found->second;
    }
    return nullptr;
}

// The content pool's value of a base field: a feed with both names of the field (e.g.
// kategorie1 and category-path) keeps the spec's content-pool name as a property, and the
// content pool reads that one (docs/integration.md, ADR 0070); otherwise the field.
const std::string& contentPoolValue(const Product& product, const char* column, const std::string& field) {
    const std::string* pool = property(product, {column});
    return pool ? *pool : field;
}

}  // namespace

uint32_t FeatureSpace::find(std::string_view key) const {
    std::string text(key);
    auto found = base_->ids.find(text);
    if (found != base_->ids.end()) return found->second;
    if (added_.ids.empty()) return 0;
    auto added = added_.ids.find(text);
    return added == added_.ids.end() ? 0 : added->second;
}

uint32_t FeatureSpace::intern(std::string_view key) {
    if (key.empty()) return 0;
    std::string text(key);
    auto found = base_->ids.find(text);
    if (found != base_->ids.end()) return found->second;
    auto id = static_cast<uint32_t>(base_->words.size() + added_.words.size());
    auto [added, inserted] = added_.ids.try_emplace(std::move(text), id);
    if (inserted) added_.words.emplace_back(key);
    return added->second;
}

std::string FeatureSpace::occasionKey(std::string_view text, bool knownOnly) {
    std::string key = TextTokenizer::key(text);
    if (key.empty() || key == "na") return "";
    if (key == "sport" || key == "sportlich" || key == "athletic" || key == "training" || key == "running" || key == "fitnes" ||
        key == "sportswear" || key == "active")
        return "sports";
    if (key == "elegant" || key == "business" || key == "office" || key == "formell" || key == "formal") return "formal";
    if (key == "freizeit" || key == "everyday" || key == "leger" || key == "lassig" || key == "lässig" || key == "casual") return "casual";
    if (key == "festive" || key == "festlich" || key == "traditional" || key == "ethnic") return "ethnic";
    if (key == "lounge" || key == "loungewear" || key == "nightwear" || key == "home") return "home";
    if (key == "smartcasual" || key == "party" || key == "travel") return key;
    return knownOnly ? "" : key;
}

bool FeatureSpace::occasionsCompatible(uint32_t a, uint32_t b) const {
    if (a == 0 || b == 0 || a == b) return true;
    for (const auto& [x, y] : trained_->compatibleOccasions) {
        if (x == a && y == b) return true;
    }
    return false;
}

FeatureSpace::TextParts FeatureSpace::textParts(const Product& product) const {
    TextParts parts;
    TextTokenizer::tokenize(product.name, parts.nameAndDescription);
    const std::string& description = contentPoolValue(product, "beschreibung", product.description);
    if (description != product.name) TextTokenizer::tokenize(description, parts.nameAndDescription);
    if (const auto* shortName = property(product, {"name2", "typ"})) TextTokenizer::tokenize(*shortName, parts.nameAndDescription);
    auto levels = CategoryPath::levels(CategoryPath::ofProduct(product));
    for (const auto& level : levels) parts.category.push_back(TextTokenizer::key(level));
    // The leaf names the kind; a leaf that is only a department ("Women") does not.
    if (size_t kind = CategoryPath::kindLevel(levels); kind != CategoryPath::npos) parts.kindKey = parts.category[kind];
    return parts;
}

std::vector<uint32_t> FeatureSpace::ids(const std::vector<std::string>& tokens) {
    std::vector<uint32_t> out;
    out.reserve(tokens.size());
    for (const auto& token : tokens) out.push_back(intern(token));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

void FeatureSpace::train(const std::vector<const Product*>& representatives) {
    // Everyday occasions mix; formal meets smart casual and party; sportswear, ethnic wear
    // and home wear keep to themselves (no formal shoes with a track suit).
    const std::pair<const char*, const char*> bridges[] = {
        {"casual", "smartcasual"}, {"casual", "travel"}, {"casual", "party"}, {"smartcasual", "travel"}, {"smartcasual", "party"},
        {"formal", "smartcasual"}, {"formal", "party"}, {"ethnic", "party"}, {"home", "casual"},
    };
    auto trained = std::make_shared<Trained>();
    for (const auto& [x, y] : bridges) {
        trained->compatibleOccasions.emplace_back(intern(x), intern(y));
        trained->compatibleOccasions.emplace_back(intern(y), intern(x));
    }
    std::unordered_map<uint32_t, std::map<std::vector<uint32_t>, int>> pathCounts;
    for (const Product* product : representatives) {
        TextParts parts = textParts(*product);
        auto tokens = ids(parts.nameAndDescription);
        auto category = ids(parts.category);
        trained->documents += 1;
        for (uint32_t token : tokens) trained->documentFrequency[token] += 1;
        for (uint32_t token : category) {
            if (!std::binary_search(tokens.begin(), tokens.end(), token)) trained->documentFrequency[token] += 1;
        }
        if (parts.kindKey.empty()) continue;
        uint32_t kind = intern(parts.kindKey);
        trained->classifier.addExample(kind, tokens);
        std::vector<uint32_t> path;
        for (const auto& level : parts.category) path.push_back(intern(level));
        pathCounts[kind][path] += 1;
    }
    trained->classifier.finish();
    for (auto& [kind, paths] : pathCounts) {
        auto best = std::max_element(paths.begin(), paths.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
        trained->kindPaths[kind] = best->first;
    }
    trained_ = std::move(trained);
    freeze();
}

void FeatureSpace::freeze() {
    if (added_.words.empty()) return;
    // A vocabulary no other copy shares (the space is being trained or fully built) is
    // extended in place, not copied (a million-SKU catalog has a word per model).
    // Every Words is made non-const (make_shared<Words>), so the cast is sound.
    auto words = base_.use_count() == 1 ? std::const_pointer_cast<Words>(base_) : std::make_shared<Words>(*base_);
    for (auto& word : added_.words) {
        words->ids.emplace(word, static_cast<uint32_t>(words->words.size()));
        words->words.push_back(std::move(word));
    }
    added_ = Words{};
    base_ = std::move(words);
}

ArticleProfile FeatureSpace::profile(const Product& product) {
    ArticleProfile profile;
    auto terms = std::make_shared<ProfileTerms>();
    auto& categoryKeys = terms->categoryKeys;
    TextParts parts = textParts(product);
    auto nameTokens = ids(parts.nameAndDescription);
    if (!parts.kindKey.empty()) {
        profile.kind = intern(parts.kindKey);
        for (const auto& level : parts.category) categoryKeys.push_back(intern(level));
    } else {
        profile.kind = trained_->classifier.predict(nameTokens);
        profile.kindInferred = true;
        auto path = trained_->kindPaths.find(profile.kind);
        if (path != trained_->kindPaths.end()) categoryKeys = path->second;
        else if (profile.kind != 0) categoryKeys = {profile.kind};
    }

    // Department: the content-pool column, else the category path, else the name.
    if (const auto* department = property(product, {"abteilung", "department", "gender", "kiko"})) {
        profile.department = departmentFromText(*department);
    }
    if (profile.department == Department::Unknown) profile.department = departmentFromText(CategoryPath::ofProduct(product));
    if (profile.department == Department::Unknown) profile.department = departmentFromText(product.name);

    const std::string& color = contentPoolValue(product, "farbe", product.color);
    profile.color = intern(TextTokenizer::key(color));
    const auto* spectrum = property(product, {"farbspektrum", "color-family", "colour-family"});
    profile.colorFamily = colorFamilyFromText(spectrum ? *spectrum : color);
    if (profile.colorFamily == ColorFamily::Unknown && spectrum) profile.colorFamily = colorFamilyFromText(color);
    profile.brand = intern(TextTokenizer::key(contentPoolValue(product, "marke", product.brand)));
    const auto* style = property(product, {"stil", "style"});
    if (const auto* occasion = property(product, {"anlass", "occasion", "usage"})) {
        profile.occasion = intern(occasionKey(*occasion));
    } else if (style && !occasionKey(*style, true).empty()) {
        profile.occasion = intern(occasionKey(*style, true));
    } else {
        // Kinds that imply their occasion: "Sports Shoes", "Formal Shoes", "Track Pants".
        for (uint32_t key : categoryKeys) {
            const std::string& word = text(key);
            if (word.find("sport") != std::string::npos || word.find("track") != std::string::npos) profile.occasion = intern("sports");
            else if (word.find("formal") != std::string::npos) profile.occasion = intern("formal");
        }
    }
    if (style && occasionKey(*style, true).empty()) profile.style = intern(TextTokenizer::key(*style));
    if (const auto* season = property(product, {"saison", "season"})) profile.season = intern(TextTokenizer::key(*season));
    if (const auto* material = property(product, {"material", "obermaterial"})) profile.material = intern(TextTokenizer::key(*material));
    if (const auto* pattern = property(product, {"muster", "pattern"})) profile.pattern = intern(TextTokenizer::key(*pattern));
    if (const auto* fit = property(product, {"passform", "schnitt", "fit"})) profile.fit = intern(TextTokenizer::key(*fit));
    profile.model = intern(product.model.empty() ? product.mainSku : product.model);
    profile.price = product.sellingPrice().value_or(0);
    if (profile.price > 0) profile.logPrice = static_cast<float>(std::log(static_cast<double>(profile.price)));

    // Text vector: name, description and category words, weighted by rarity (idf), so a
    // shared "shirt" counts for less than a shared "henley" or "chelsea".
    std::vector<uint32_t> tokens = nameTokens;
    for (uint32_t key : categoryKeys) tokens.push_back(key);
    std::sort(tokens.begin(), tokens.end());
    tokens.erase(std::unique(tokens.begin(), tokens.end()), tokens.end());
    double norm = 0;
    for (uint32_t token : tokens) {
        auto found = trained_->documentFrequency.find(token);
        double frequency = found == trained_->documentFrequency.end() ? 1.0 : found->second;
        double weight = std::log((trained_->documents + 1) / frequency);
        // Department words are scored on their own; in the text they would only add noise.
        if (departmentFromToken(text(token)) != Department::Unknown) weight = 0;
        terms->tokens.push_back(token);
        terms->weights.push_back(static_cast<float>(weight));
        norm += weight * weight;
    }
    if (norm > 0) {
        float scale = static_cast<float>(1.0 / std::sqrt(norm));
        for (auto& weight : terms->weights) weight *= scale;
    }
    profile.terms = std::move(terms);
    return profile;
}

}  // namespace svc
