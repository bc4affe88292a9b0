#pragma once
// Sets a tenant's operator curates by hand. A custom set is built from a model or
// mood photo with the SKUs visible in it (widget SET-Custom, GraphQL customSets); a
// photo set is the photo with its tags only, no product data (GraphQL setPhoto).
#include <cstdint>
#include <string>
#include <vector>

namespace svc {

struct CustomSet {
    std::string id;
    std::string title;
    std::string description;
    std::vector<std::string> tags;
    std::vector<std::string> images;  // URLs, the photo first
    std::vector<std::string> skus;    // SKUs or main SKUs visible in the photo, in display order

    bool operator==(const CustomSet&) const = default;
};

struct PhotoSet {
    std::string id;
    std::string title;
    std::vector<std::string> tags;
    std::vector<std::string> images;

    bool operator==(const PhotoSet&) const = default;
};

}  // namespace svc
