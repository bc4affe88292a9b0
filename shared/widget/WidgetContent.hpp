#pragma once
// What the content endpoint returns for the widgets of one page, and its JSON
// form. Written by the server, read by the SDK: one definition for both.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.hpp"
#include "widget/WidgetTexts.hpp"

namespace svc {

struct ContentItem {
    std::string sku;      // the variant to add to the cart
    std::string mainSku;
    std::string name;
    std::string brand;
    std::string url;
    std::string image;
    int64_t price = 0;                   // selling price, cents
    std::optional<int64_t> retailPrice;  // shown crossed out when above price
    // The lowest price of the 30 days before the current reduction: only where the tenant's
    // country requires it (WidgetSettings::requiresLowestPrice30Days) and the item is reduced.
    std::optional<int64_t> lowestPrice30Days;
    std::vector<ContentItem> alternatives;  // SET and SET-Custom: items that could take this one's place
};

struct WidgetContent {
    std::vector<ContentItem> items;
    std::string setId;  // SET-Custom: the custom set shown; SET: the generated set's id
    std::string title;  // SET-Custom: the set's title
    std::string image;  // SET-Custom: the set's photo
    std::string description;  // SET-Custom: what the photo shows (its alt text)
};

struct ContentResponse {
    std::string currency = "EUR";
    std::string locale = "de-DE";
    // Every visible text, in the language the tenant's rule chose for the page (ADR 0028).
    // Absent from a response: the built-in English texts.
    std::string language = "en";
    WidgetTexts texts;
    std::vector<WidgetContent> widgets;  // same order as the request

    std::string toJson() const;
    // Refuses malformed or incomplete JSON with a message naming the path.
    static Result<ContentResponse> fromJson(const std::string& text);
};

}  // namespace svc
