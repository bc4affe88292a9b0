#pragma once
// ContentStore on PostgreSQL (docs/adr/0088). Every write that bumps a content generation sends
// NOTIFY svc_content '<tenant id>' in its own transaction (PgChangeNotifications), so other nodes
// learn of the change when, and only when, it commits; a write that rolls back sends nothing.
#include "core/Clock.hpp"
#include "store/ContentStore.hpp"
#include "store/PgDatabase.hpp"

namespace svc {

class PgContentStore : public ContentStore {
public:
    PgContentStore(PgDatabase& database, const Clock& clock) : database_(database), clock_(clock) {}

    Result<std::vector<SetTemplate>> templates() override;
    Result<bool> putTemplate(const SetTemplate& setTemplate) override;
    Result<bool> deleteTemplate(const std::string& id) override;
    Result<std::vector<CustomSet>> customSets(int64_t tenantId) override;
    Result<std::vector<PhotoSet>> photoSets(int64_t tenantId) override;
    Result<bool> putCustomSet(int64_t tenantId, const CustomSet& set) override;
    Result<bool> putPhotoSet(int64_t tenantId, const PhotoSet& set) override;
    Result<bool> deleteSet(int64_t tenantId, SetKind kind, const std::string& id) override;
    Status importFile(std::optional<int64_t> tenantId, const SetFile& file) override;
    Status bumpGeneration(int64_t tenantId) override;
    Result<std::map<int64_t, int64_t>> generations() override;
    Status recordLearned(int64_t tenantId, const LearnedUpTo& learned) override;
    Result<std::map<int64_t, LearnedUpTo>> learned() override;

private:
    // `write` returns whether it changed anything; the generation is bumped (and the change
    // announced) in the same transaction only when it did.
    Result<bool> writeAndBump(const char* purpose, int64_t tenantId, const std::function<Result<bool>(PgConnection&)>& write);
    Result<bool> putSet(int64_t tenantId, SetKind kind, const std::string& id, const std::string& definition);
    template <typename Set, typename Parse>
    Result<std::vector<Set>> readSets(int64_t tenantId, SetKind kind, Parse parse);

    PgDatabase& database_;
    const Clock& clock_;
};

}  // namespace svc
