// FeedImportOptions: the one rule book for import options that the push API (upload and dry
// run), the console's upload, the CLI and pull sources all use (docs/adr/0081).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "feed/FeedImportOptions.hpp"

using svc::FeedImportFieldNames;
using svc::FeedImportOptions;

namespace {

std::string joined(const std::vector<svc::Error>& errors) {
    std::string out;
    for (const auto& error : errors) out += (out.empty() ? "" : " | ") + error.message;
    return out;
}

}  // namespace

TEST_CASE("FeedImportOptions::parseDelimiter: one character that can separate columns, named by the caller's field") {
    struct Case {
        std::string text;
        std::string expected;  // the delimiter, or the refusal
    };
    const std::vector<Case> cases = {
        {";", ";"},
        {",", ","},
        {"\t", "\t"},
        {"|", "|"},
        {"", "--delimiter: must be exactly one character"},
        {";;", "--delimiter: must be exactly one character"},
        {"\xC3\xA9", "--delimiter: must be exactly one character"},  // é: two bytes, not one column separator
        {"\"", "--delimiter: a quote or line break cannot separate columns"},
        {"\n", "--delimiter: a quote or line break cannot separate columns"},
        {"\r", "--delimiter: a quote or line break cannot separate columns"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.text);
        auto parsed = FeedImportOptions::parseDelimiter(c.text, "--delimiter");
        CHECK((parsed ? std::string(1, *parsed) : parsed.error().message) == c.expected);
    }
}

TEST_CASE("FeedImportOptions::validate: every problem in a fixed order, each naming the field as its entry point calls it") {
    struct Case {
        const char* name;
        FeedImportOptions options;
        FeedImportFieldNames names;
        std::string expected;  // joined errors; empty: valid
    };
    auto with = [](std::string identifier, char delimiter, std::string feed) {
        FeedImportOptions options;
        options.identifier = std::move(identifier);
        options.delimiter = delimiter;
        options.feed = std::move(feed);
        return options;
    };
    const std::string tooLong(FeedImportOptions::kMaxIdentifierLength + 1, 'x');
    const std::vector<Case> cases = {
        {"defaults", FeedImportOptions{}, FeedImportFieldNames::api(), ""},
        {"a column name with a space", with("Product ID", ',', "stock"), FeedImportFieldNames::api(), ""},
        {"64 characters", with(std::string(64, 'x'), ';', "default"), FeedImportFieldNames::api(), ""},
        {"blank identifier", with("  ", ';', "default"), FeedImportFieldNames::api(),
         "identifier: the column that identifies a product, 1 to 64 characters"},
        {"identifier too long", with(tooLong, ';', "default"), FeedImportFieldNames::cli(),
         "--identifier: the column that identifies a product, 1 to 64 characters"},
        {"quote as delimiter", with("sku", '"', "default"), FeedImportFieldNames::api(),
         "delimiter: a quote or line break cannot separate columns"},
        {"line break as delimiter, JSON member names", with("sku", '\n', "default"), {"identifier", "format.options.delimiter", "feed"},
         "format.options.delimiter: a quote or line break cannot separate columns"},
        {"bad feed name", with("sku", ';', "Stock!"), FeedImportFieldNames::cli(),
         "--feed: 'Stock!' is not a feed name (1-40 of a-z, 0-9, '-', '_')"},
        {"all at once", with("", '\r', ""), FeedImportFieldNames::api(),
         "feed: '' is not a feed name (1-40 of a-z, 0-9, '-', '_') | identifier: the column that identifies a product, 1 to 64 characters | "
         "delimiter: a quote or line break cannot separate columns"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        CHECK(joined(c.options.validate(c.names)) == c.expected);
    }
}
