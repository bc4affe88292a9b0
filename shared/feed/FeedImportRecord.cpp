#include "feed/FeedImportRecord.hpp"

#include "core/NameTable.hpp"

namespace svc {
namespace {
constexpr NameTable<ImportStatus, 6> kStatuses{{{
    {"queued", ImportStatus::Queued},
    {"running", ImportStatus::Running},
    {"applied", ImportStatus::Applied},
    {"failed", ImportStatus::Failed},
    {"held", ImportStatus::Held},
    {"discarded", ImportStatus::Discarded},
}}};
}  // namespace

std::string_view importStatusName(ImportStatus status) { return kStatuses.name(status); }

Status validateFeedName(const std::string& name, const std::string& field) {
    bool valid = !name.empty() && name.size() <= 40 &&
                 name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") == std::string::npos;
    if (!valid) return Error::invalidArgument(field + ": '" + name + "' is not a feed name (1-40 of a-z, 0-9, '-', '_')");
    return Status::success();
}

bool parseImportStatus(std::string_view text, ImportStatus& out) {
    auto status = kStatuses.parse(text);
    if (status) out = *status;
    return status.has_value();
}

}  // namespace svc
