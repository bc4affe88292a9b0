#include "feed/FeedImportOptions.hpp"

#include "feed/FeedImportRecord.hpp"
#include "text/StringUtil.hpp"

namespace svc {
namespace {

// The CSV reader gives a quote and line breaks their own meaning: as a separator they would
// make every row unreadable.
Status checkDelimiter(char delimiter, const std::string& field) {
    if (delimiter == '"' || delimiter == '\n' || delimiter == '\r') {
        return Error::invalidField(field, "a quote or line break cannot separate columns");
    }
    return Status::success();
}

}  // namespace

Result<char> FeedImportOptions::parseDelimiter(const std::string& text, const std::string& field) {
    if (text.size() != 1) return Error::invalidField(field, "must be exactly one character");
    if (auto valid = checkDelimiter(text[0], field); !valid) return valid.error();
    return text[0];
}

std::vector<Error> FeedImportOptions::validate(const FeedImportFieldNames& names) const {
    std::vector<Error> errors;
    if (auto valid = validateFeedName(feed, names.feed); !valid) errors.push_back(valid.error());
    if (trim(identifier).empty() || identifier.size() > kMaxIdentifierLength) {
        errors.push_back(Error::invalidField(names.identifier, "the column that identifies a product, 1 to " +
                                                std::to_string(kMaxIdentifierLength) + " characters"));
    }
    if (auto valid = checkDelimiter(delimiter, names.delimiter); !valid) errors.push_back(valid.error());
    return errors;
}

}  // namespace svc
