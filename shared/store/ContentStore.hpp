#pragma once
// Storage of curated content: the operator's set templates (shared by all tenants) and
// each tenant's custom and photo sets, plus the content generations that tell every
// server process when a tenant's content must be rebuilt.
//
// Contract (tests/store/ContentStoreContractTest.cpp):
// - sets are kept per tenant and kind: a custom and a photo set may share an id, and one
//   tenant's sets never show in another's; a set deleted and put again is new (it goes last).
// - every change that writes (a put, a delete that removed something, an imported file) adds one
//   to its generation (the templates': tenant 0); a tenant that never changed has none.
// - a refused file writes nothing and bumps nothing: a tenant's file holding templates is
//   PermissionDenied, the operator's file holding sets InvalidArgument.
// - what sets/SetJson accepts (its lengths and lists) is read back byte for byte.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.hpp"
#include "sets/CustomSet.hpp"
#include "sets/SetJson.hpp"
#include "sets/SetTemplate.hpp"

namespace svc {

enum class SetKind { Custom, Photo };

class ContentStore {
public:
    virtual ~ContentStore() = default;
    virtual Result<std::vector<SetTemplate>> templates() = 0;
    // Creates or replaces by id; true when created.
    virtual Result<bool> putTemplate(const SetTemplate& setTemplate) = 0;
    // False when there was no such template.
    virtual Result<bool> deleteTemplate(const std::string& id) = 0;

    // In creation order (a replaced set keeps its place).
    virtual Result<std::vector<CustomSet>> customSets(int64_t tenantId) = 0;
    virtual Result<std::vector<PhotoSet>> photoSets(int64_t tenantId) = 0;
    virtual Result<bool> putCustomSet(int64_t tenantId, const CustomSet& set) = 0;
    virtual Result<bool> putPhotoSet(int64_t tenantId, const PhotoSet& set) = 0;
    virtual Result<bool> deleteSet(int64_t tenantId, SetKind kind, const std::string& id) = 0;

    // Everything in the file, in one transaction: all of it or none. Templates are
    // written only when `tenantId` is empty (the operator's own file); a tenant's file
    // holding templates is refused.
    virtual Status importFile(std::optional<int64_t> tenantId, const SetFile& file) = 0;

    // Marks the tenant's content as changed (after an import); tenant 0 stands for the templates.
    virtual Status bumpGeneration(int64_t tenantId) = 0;
    virtual Result<std::map<int64_t, int64_t>> generations() = 0;

    // Up to where a tenant's served content learned from its purchases (ADR 0074), kept beside its
    // generation so a restarted server reports it before its first build. The last write wins.
    struct LearnedUpTo {
        int64_t orders = 0;
        int64_t lastOrderReceivedAt = 0;  // Unix seconds; 0: none
    };
    virtual Status recordLearned(int64_t tenantId, const LearnedUpTo& learned) = 0;
    virtual Result<std::map<int64_t, LearnedUpTo>> learned() = 0;
};

}  // namespace svc
