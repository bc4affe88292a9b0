#include "feed/FeedImportRecord.hpp"

#include <array>
#include <utility>

namespace svc {
namespace {
constexpr std::array<std::pair<std::string_view, ImportStatus>, 6> kStatuses{{
    {"queued", ImportStatus::Queued},
    {"running", ImportStatus::Running},
    {"applied", ImportStatus::Applied},
    {"failed", ImportStatus::Failed},
    {"held", ImportStatus::Held},
    {"discarded", ImportStatus::Discarded},
}};
}  // namespace

std::string_view importStatusName(ImportStatus status) {
    for (const auto& [name, value] : kStatuses) {
        if (value == status) return name;
    }
    return "failed";
}

Status validateFeedName(const std::string& name, const std::string& field) {
    bool valid = !name.empty() && name.size() <= 40 &&
                 name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") == std::string::npos;
    if (!valid) return Error::invalidArgument(field + ": '" + name + "' is not a feed name (1-40 of a-z, 0-9, '-', '_')");
    return Status::success();
}

bool parseImportStatus(std::string_view text, ImportStatus& out) {
    for (const auto& [name, value] : kStatuses) {
        if (name == text) {
            out = value;
            return true;
        }
    }
    return false;
}

}  // namespace svc
