#pragma once
// ContentStore in the main database (tables set_templates, custom_sets,
// content_generations), sets kept as their validated JSON; and the operator keys
// (operator_keys) that guard the content pool.
#include <mutex>

#include "store/ContentStore.hpp"
#include "store/OperatorKeyStore.hpp"
#include "store/SqliteDatabase.hpp"

namespace svc {

class SqliteContentStore : public ContentStore, public OperatorKeyStore {
public:
    SqliteContentStore(SqliteDatabase& db, std::mutex& mutex) : db_(db), mutex_(mutex) {}
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
    Status addOperatorKey(const OperatorKey& key) override;
    Result<std::vector<OperatorKey>> operatorKeys() override;
    Result<bool> removeOperatorKey(const std::string& name) override;

private:
    // The unlocked steps, run inside the callers' lock and transaction.
    Result<bool> writeTemplate(const SetTemplate& setTemplate);
    Result<bool> writeSet(int64_t tenantId, SetKind kind, const std::string& id, const std::string& definition);
    Result<bool> putSet(int64_t tenantId, SetKind kind, const std::string& id, const std::string& definition);
    Status bump(int64_t tenantId);
    template <typename Set, typename Parse>
    Result<std::vector<Set>> readSets(int64_t tenantId, SetKind kind, Parse parse);

    SqliteDatabase& db_;
    std::mutex& mutex_;
};

}  // namespace svc
