#pragma once
// Presentation data the host adds to the catalog's facts, for one request of one tenant: the
// SDK's content answer and GraphQL read it from the same place (native-server's ContentAnswer,
// ADR 0080). The core sees only this interface: the facts live with the host (the image bot).
#include <optional>
#include <string>

namespace svc {

class ContentPresentation {
public:
    virtual ~ContentPresentation() = default;
    // The picture a widget shows for a product (the feed's thumbnail, else its image) as the
    // shopper's browser should load it: svc's thumbnail once the image bot made one for a large
    // picture, else the feed's URL. `thumbnail` may be empty.
    virtual std::string shownPicture(const std::string& image, const std::string& thumbnail) const = 0;
};

}  // namespace svc
