#pragma once
// How a feed file is read and what it stands for, and the one place its rules live: every entry
// point that accepts import options (the push API's upload and dry run, the console's upload, the
// CLI, pull sources) checks them here, so all refuse the same options with the same words; only
// the names of the fields differ (query parameters, JSON members, CLI options).
#include <string>
#include <vector>

#include "core/Result.hpp"

namespace svc {

// How each option is called where the options came from.
struct FeedImportFieldNames {
    std::string identifier = "identifier";
    std::string delimiter = "delimiter";
    std::string feed = "feed";
    static FeedImportFieldNames api() { return {}; }
    static FeedImportFieldNames cli() { return {"--identifier", "--delimiter", "--feed"}; }
};

struct FeedImportOptions {
    static constexpr size_t kMaxIdentifierLength = 64;

    std::string identifier = "sku";
    char delimiter = ';';
    bool delta = false;  // false: a full feed, products missing from it are marked deleted
    std::string feed = "default";  // which of the tenant's feeds: the owner of what it lists (ADR 0070)

    // The delimiter as a client gives it (text): exactly one character that can separate columns.
    static Result<char> parseDelimiter(const std::string& text, const std::string& field);
    // Every problem of these options, in the order feed, identifier, delimiter; each names its
    // field. Empty: the options are valid.
    std::vector<Error> validate(const FeedImportFieldNames& names) const;
};

}  // namespace svc
