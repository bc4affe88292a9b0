#include "image/PerceptualHash.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <numbers>

#include "image/ImageCodec.hpp"

namespace svc {
namespace {

constexpr int kSide = 32;
constexpr int kKept = 8;

// cos((2x + 1) u pi / 64) for the kept frequencies u < 8 and the 32 sample positions x.
const std::array<std::array<double, kSide>, kKept>& cosines() {
    static const auto table = [] {
        std::array<std::array<double, kSide>, kKept> values{};
        for (int u = 0; u < kKept; ++u) {
            for (int x = 0; x < kSide; ++x) values[u][x] = std::cos((2 * x + 1) * u * std::numbers::pi / (2 * kSide));
        }
        return values;
    }();
    return table;
}

}  // namespace

uint64_t PerceptualHash::of(const RgbImage& image) {
    RgbImage small = (image.width == kSide && image.height == kSide) ? image : ImageCodec::resize(image, kSide, kSide);
    std::array<std::array<double, kSide>, kSide> grey{};
    for (int y = 0; y < kSide; ++y) {
        for (int x = 0; x < kSide; ++x) {
            const uint8_t* p = small.at(x, y);
            grey[y][x] = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
        }
    }
    // Separable DCT, only the 8 x 8 low frequencies: rows first, then columns.
    const auto& c = cosines();
    std::array<std::array<double, kKept>, kSide> rows{};  // [y][u]
    for (int y = 0; y < kSide; ++y) {
        for (int u = 0; u < kKept; ++u) {
            double sum = 0;
            for (int x = 0; x < kSide; ++x) sum += grey[y][x] * c[u][x];
            rows[y][u] = sum;
        }
    }
    std::array<double, kKept * kKept> coefficients{};
    for (int v = 0; v < kKept; ++v) {
        for (int u = 0; u < kKept; ++u) {
            double sum = 0;
            for (int y = 0; y < kSide; ++y) sum += rows[y][u] * c[v][y];
            coefficients[v * kKept + u] = sum;
        }
    }
    // The median of the AC coefficients: the DC term (mean brightness) would dominate it.
    std::array<double, kKept * kKept - 1> ac{};
    std::copy(coefficients.begin() + 1, coefficients.end(), ac.begin());
    std::nth_element(ac.begin(), ac.begin() + ac.size() / 2, ac.end());
    double median = ac[ac.size() / 2];
    uint64_t hash = 0;
    for (int i = 0; i < kKept * kKept; ++i) {
        if (coefficients[i] > median) hash |= uint64_t{1} << i;
    }
    return hash;
}

int PerceptualHash::distance(uint64_t a, uint64_t b) { return std::popcount(a ^ b); }

std::vector<bool> PerceptualHash::firstOfEachPicture(const std::vector<std::optional<uint64_t>>& hashes) {
    std::vector<bool> keep(hashes.size(), true);
    std::vector<uint64_t> kept;
    for (size_t i = 0; i < hashes.size(); ++i) {
        if (!hashes[i]) continue;
        for (uint64_t earlier : kept) {
            if (distance(*hashes[i], earlier) <= kNearDuplicateDistance) {
                keep[i] = false;
                break;
            }
        }
        if (keep[i]) kept.push_back(*hashes[i]);
    }
    return keep;
}

}  // namespace svc
