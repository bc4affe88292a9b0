#include "image/DominantColors.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>

namespace svc {
namespace {

struct Lab {
    double l = 0, a = 0, b = 0;
};

double toLinear(int channel) {
    double c = channel / 255.0;
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

int fromLinear(double c) {
    c = std::clamp(c, 0.0, 1.0);
    double encoded = c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1 / 2.4) - 0.055;
    return static_cast<int>(std::lround(encoded * 255));
}

// sRGB (D65) to CIELAB.
Lab toLab(const uint8_t* rgb) {
    static const auto linear = [] {
        std::array<double, 256> table{};
        for (int i = 0; i < 256; ++i) table[i] = toLinear(i);
        return table;
    }();
    double r = linear[rgb[0]], g = linear[rgb[1]], b = linear[rgb[2]];
    double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116; };
    double fx = f(x), fy = f(y), fz = f(z);
    return {116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
}

ColorShare toRgb(const Lab& lab, double share) {
    double fy = (lab.l + 16) / 116, fx = fy + lab.a / 500, fz = fy - lab.b / 200;
    auto inverse = [](double t) { return t * t * t > 0.008856 ? t * t * t : (t - 16.0 / 116) / 7.787; };
    double x = inverse(fx) * 0.95047, y = inverse(fy), z = inverse(fz) * 1.08883;
    double r = 3.2406 * x - 1.5372 * y - 0.4986 * z;
    double g = -0.9689 * x + 1.8758 * y + 0.0415 * z;
    double b = 0.0557 * x - 0.2040 * y + 1.0570 * z;
    return {fromLinear(r), fromLinear(g), fromLinear(b), share};
}

double distanceSquared(const Lab& p, const Lab& q) {
    double dl = p.l - q.l, da = p.a - q.a, db = p.b - q.b;
    return dl * dl + da * da + db * db;
}

constexpr double kMinShare = 0.03;
constexpr double kMergeDistance = 12;  // CIE76 delta E: colours closer than this read as one
constexpr int kMaxSamples = 4096;
constexpr int kIterations = 8;

}  // namespace

std::string ColorShare::hex() const {
    char text[8];
    std::snprintf(text, sizeof text, "#%02x%02x%02x", red & 0xff, green & 0xff, blue & 0xff);
    return text;
}

std::vector<ColorShare> DominantColors::of(const RgbImage& image, int maxColors) {
    if (image.width <= 0 || image.height <= 0 || maxColors <= 0) return {};
    // A regular grid of samples: enough for shares to 1 %, independent of the image size.
    int64_t pixels = int64_t{image.width} * image.height;
    int step = std::max(1, static_cast<int>(std::sqrt(static_cast<double>(pixels) / kMaxSamples)));
    std::vector<Lab> samples;
    for (int y = step / 2; y < image.height; y += step) {
        for (int x = step / 2; x < image.width; x += step) samples.push_back(toLab(image.at(x, y)));
    }
    // Seeds: the means of the fullest cells of a coarse Lab grid (L in steps of 20, a/b of 32).
    struct Cell {
        Lab sum;
        int count = 0;
    };
    std::map<std::array<int, 3>, Cell> cells;
    for (const auto& s : samples) {
        auto& cell = cells[{static_cast<int>(s.l / 20), static_cast<int>(std::floor(s.a / 32)), static_cast<int>(std::floor(s.b / 32))}];
        cell.sum.l += s.l, cell.sum.a += s.a, cell.sum.b += s.b;
        ++cell.count;
    }
    std::vector<const Cell*> fullest;
    for (const auto& [key, cell] : cells) fullest.push_back(&cell);
    std::stable_sort(fullest.begin(), fullest.end(), [](const Cell* p, const Cell* q) { return p->count > q->count; });
    std::vector<Lab> centres;
    for (const Cell* cell : fullest) {
        if (static_cast<int>(centres.size()) == maxColors + 2) break;  // a few spare seeds: merging may drop some
        centres.push_back({cell->sum.l / cell->count, cell->sum.a / cell->count, cell->sum.b / cell->count});
    }
    std::vector<int> counts(centres.size());
    for (int iteration = 0; iteration < kIterations; ++iteration) {
        std::vector<Lab> sums(centres.size());
        std::fill(counts.begin(), counts.end(), 0);
        for (const auto& s : samples) {
            size_t best = 0;
            for (size_t c = 1; c < centres.size(); ++c) {
                if (distanceSquared(s, centres[c]) < distanceSquared(s, centres[best])) best = c;
            }
            sums[best].l += s.l, sums[best].a += s.a, sums[best].b += s.b;
            ++counts[best];
        }
        for (size_t c = 0; c < centres.size(); ++c) {
            if (counts[c]) centres[c] = {sums[c].l / counts[c], sums[c].a / counts[c], sums[c].b / counts[c]};
        }
    }
    // Merge clusters that look alike, the smaller into the larger (weighted mean).
    std::vector<size_t> order(centres.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t p, size_t q) { return counts[p] > counts[q]; });
    std::vector<std::pair<Lab, int>> merged;
    for (size_t index : order) {
        if (!counts[index]) continue;
        auto near = std::find_if(merged.begin(), merged.end(), [&](const auto& m) {
            return distanceSquared(m.first, centres[index]) < kMergeDistance * kMergeDistance;
        });
        if (near == merged.end()) {
            merged.push_back({centres[index], counts[index]});
            continue;
        }
        double total = near->second + counts[index];
        Lab& m = near->first;
        m = {(m.l * near->second + centres[index].l * counts[index]) / total, (m.a * near->second + centres[index].a * counts[index]) / total,
             (m.b * near->second + centres[index].b * counts[index]) / total};
        near->second += counts[index];
    }
    std::stable_sort(merged.begin(), merged.end(), [](const auto& p, const auto& q) { return p.second > q.second; });
    std::vector<ColorShare> colors;
    for (const auto& [lab, count] : merged) {
        double share = static_cast<double>(count) / samples.size();
        if (share < kMinShare || static_cast<int>(colors.size()) == maxColors) break;
        colors.push_back(toRgb(lab, share));
    }
    return colors;
}

}  // namespace svc
