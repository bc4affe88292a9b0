#pragma once
// What the engine knows about one article (main SKU) for matching: every text and
// attribute reduced to ids of one FeatureSpace, so comparing two articles never
// touches a string.
#include <cstdint>
#include <memory>
#include <vector>

#include "recommend/ColorFamily.hpp"
#include "recommend/Department.hpp"

namespace svc {

// The variable-length part of a profile, immutable once made and shared between the
// snapshots that keep the profile: an incremental build copies every article's entry,
// and one pointer is far cheaper to copy and free than three vectors (ADR 0015).
struct ProfileTerms {
    std::vector<uint32_t> categoryKeys;  // keys of every level of the primary path (inferred paths included)
    std::vector<uint32_t> tokens;        // distinct text tokens, ascending
    std::vector<float> weights;          // their tf-idf weights, L2-normalised (parallel to tokens)

    bool operator==(const ProfileTerms&) const = default;
    // The terms of a profile that has none (one shared instance).
    static const std::shared_ptr<const ProfileTerms>& none() {
        static const std::shared_ptr<const ProfileTerms> empty = std::make_shared<const ProfileTerms>();
        return empty;
    }
};

struct ArticleProfile {
    // The fields every comparison reads stay inline (the scoring loop of a full build reads
    // them for every pair; behind a pointer it ran twice as slow).
    uint32_t kind = 0;                   // the kind key (leaf of the primary category, or inferred); 0 = none
    bool kindInferred = false;           // no usable category: the kind came from name and description
    Department department = Department::Unknown;
    uint32_t color = 0;  // exact colour name key
    ColorFamily colorFamily = ColorFamily::Unknown;
    uint32_t brand = 0;
    uint32_t occasion = 0;  // normalised usage: casual, formal, sports, ethnic, ...
    uint32_t style = 0;     // the style column when it is not an occasion: classic, relaxed, ...
    uint32_t season = 0;
    uint32_t material = 0;
    uint32_t pattern = 0;
    uint32_t fit = 0;
    uint32_t model = 0;
    int64_t price = 0;              // cents; 0 = unknown
    float logPrice = 0;             // log(price), computed once: comparisons use ratios
    std::shared_ptr<const ProfileTerms> terms = ProfileTerms::none();  // never null; after the scalars

    const std::vector<uint32_t>& categoryKeys() const { return terms->categoryKeys; }
    const std::vector<uint32_t>& tokens() const { return terms->tokens; }
    const std::vector<float>& weights() const { return terms->weights; }

    bool operator==(const ArticleProfile& other) const {
        return kind == other.kind && kindInferred == other.kindInferred && department == other.department && color == other.color &&
               colorFamily == other.colorFamily && brand == other.brand && occasion == other.occasion && style == other.style &&
               season == other.season && material == other.material && pattern == other.pattern && fit == other.fit &&
               model == other.model && price == other.price && logPrice == other.logPrice && *terms == *other.terms;
    }
};

}  // namespace svc
