#pragma once
// Generates the demo shop's catalog: a few thousand fashion-like variants with
// sizes, prices and stock, their product images (SVG drawn here, nothing
// downloaded), a spec-conformant CSV feed and the shop's own product list.
// Deterministic: the same seed gives byte-identical output.
#include <cstdint>
#include <string>

#include "core/Result.hpp"

namespace svc {

struct DemoCatalogSummary {
    int64_t variants = 0;
    int64_t articles = 0;
    std::string feedPath;
    std::string firstSku;  // a product the demo URL can open
};

class DemoCatalogGenerator {
public:
    explicit DemoCatalogGenerator(uint32_t seed = 20261121) : seed_(seed) {}
    // Writes feed.csv, shop.json and images/ into `directory`.
    Result<DemoCatalogSummary> generate(const std::string& directory) const;

private:
    uint32_t seed_;
};

}  // namespace svc
