#pragma once
// Turns products into ArticleProfiles. Owns what profiles are expressed in: the
// vocabulary (every token and attribute value as an id), document frequencies for
// tf-idf weights, and the KindClassifier for articles without a usable category.
// A full build trains it on the whole catalog; incremental builds copy and extend it.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "catalog/Product.hpp"
#include "recommend/ArticleProfile.hpp"
#include "recommend/KindClassifier.hpp"

namespace svc {

class FeatureSpace {
public:
    // Trains document frequencies and the kind classifier on the representatives of
    // every article of a catalog (call once, before profile()).
    void train(const std::vector<const Product*>& representatives);
    ArticleProfile profile(const Product& representative);
    // Makes the words added so far part of the shared vocabulary, so copies of this space
    // copy none of them: a full build calls it after computing every profile.
    void freeze();

    // Vocabulary id of a key (0 = never seen), and its text.
    uint32_t find(std::string_view key) const;
    const std::string& text(uint32_t id) const {
        size_t trained = base_->words.size();
        return id < trained ? base_->words[id] : added_.words[id - trained];
    }
    uint32_t intern(std::string_view key);
    // Occasion key of free text ("Sports", "sportlich", "Smart Casual"), or "" for none.
    // With `knownOnly`, text that is not a known occasion word gives "" (a style
    // column says "Classic" or "Relaxed" as often as "Casual").
    static std::string occasionKey(std::string_view text, bool knownOnly = false);
    // Whether two occasions (vocabulary ids, 0 = unknown) may meet in one outfit.
    bool occasionsCompatible(uint32_t a, uint32_t b) const;

private:
    struct TextParts {
        std::vector<std::string> nameAndDescription;  // for the classifier and the text vector
        std::vector<std::string> category;            // keys of the primary path's levels
        std::string kindKey;                          // leaf key; "" when the path is unusable
    };
    TextParts textParts(const Product& product) const;
    std::vector<uint32_t> ids(const std::vector<std::string>& tokens);

    struct Words {
        std::vector<std::string> words;
        std::unordered_map<std::string, uint32_t> ids;
    };
    // What train() learns, read-only afterwards.
    struct Trained {
        std::unordered_map<uint32_t, uint32_t> documentFrequency;
        double documents = 0;
        KindClassifier classifier;
        // The most common full path of each kind, given to articles whose kind is inferred.
        std::unordered_map<uint32_t, std::vector<uint32_t>> kindPaths;
        // Occasions that may meet in one outfit besides equal ones (vocabulary id pairs, both orders).
        std::vector<std::pair<uint32_t, uint32_t>> compatibleOccasions;
    };
    // The vocabulary of the last full build (freeze()) and the statistics are shared by every
    // copy: each incremental build copies the feature space (it may add words), and copying
    // and freeing the whole vocabulary (a word per model) took ~6 ms of an 80 ms incremental
    // build at 100k SKUs. Words added since go to a layer of the copy's own, with later ids.
    std::shared_ptr<const Words> base_ = std::make_shared<Words>(Words{{""}, {}});  // id 0 is "unknown"
    Words added_;
    std::shared_ptr<const Trained> trained_ = std::make_shared<const Trained>();
};

}  // namespace svc
