#pragma once
// How the PostgreSQL stores announce changes to every node (docs/adr/0088): a content generation
// bumped, or a tenant's settings changed, becomes a NOTIFY on a channel PgChangeListener listens
// to. Sent by the statement that makes the change, so PostgreSQL delivers it at commit and drops
// it on rollback; identical notifications of one transaction arrive once.
#include <cstdint>
#include <string>

#include "store/PgConnection.hpp"

namespace svc {

class PgChangeNotifications {
public:
    static constexpr const char* kContentChannel = "svc_content";    // payload: the tenant id (0: the templates)
    static constexpr const char* kSettingsChannel = "svc_settings";  // payload: the tenant id

    // Adds one to the tenant's content generation and announces it, in one statement (inside the
    // caller's transaction, if any).
    static Status bumpGeneration(PgConnection& connection, int64_t tenantId);
    // `change`, an UPDATE, INSERT or DELETE of rows with a `tenantColumn`, as one statement that
    // also announces each changed tenant on svc_settings (nothing when it changed no row). Its
    // result has one row per changed row.
    static std::string announcingSettings(const char* change, const char* tenantColumn);
};

}  // namespace svc
