#pragma once
// What the engine knows about one article (main SKU) for matching: every text and
// attribute reduced to ids of one FeatureSpace, so comparing two articles never
// touches a string.
#include <cstdint>
#include <vector>

#include "recommend/ColorFamily.hpp"
#include "recommend/Department.hpp"

namespace svc {

struct ArticleProfile {
    uint32_t kind = 0;                   // the kind key (leaf of the primary category, or inferred); 0 = none
    bool kindInferred = false;           // no usable category: the kind came from name and description
    std::vector<uint32_t> categoryKeys;  // keys of every level of the primary path (inferred paths included)
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
    std::vector<uint32_t> tokens;   // distinct text tokens, ascending
    std::vector<float> weights;     // their tf-idf weights, L2-normalised (parallel to tokens)

    bool operator==(const ArticleProfile&) const = default;
};

}  // namespace svc
