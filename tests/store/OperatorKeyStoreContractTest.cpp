// The OperatorKeyStore contract (shared/store/OperatorKeyStore.hpp) on every backend.
#include "StoreBackends.hpp"

namespace svc::contract {

TEST_CASE("OperatorKeyStore: a taken name is AlreadyExists; removing an unknown name is false; names kept byte for byte") {
    forEachBackend([](Backend& backend) {
        OperatorKeyStore& keys = backend.storage->operatorKeys();
        REQUIRE(keys.addOperatorKey({"ci", "hash-1"}));
        auto duplicate = keys.addOperatorKey({"ci", "hash-2"});
        REQUIRE_FALSE(duplicate);
        CHECK(duplicate.error().code == ErrorCode::AlreadyExists);
        CHECK(keys.removeOperatorKey("nobody").value() == false);
        for (const auto& text : hostileStrings()) REQUIRE(keys.addOperatorKey({text, text}));
        auto listed = keys.operatorKeys().value();
        CHECK(listed.size() == 1 + hostileStrings().size());
        for (const auto& text : hostileStrings()) {
            bool found = false;
            for (const auto& key : listed) found = found || (key.name == text && key.keyHash == text);
            CHECK(found);
        }
        CHECK(keys.removeOperatorKey("ci").value() == true);
        CHECK(keys.removeOperatorKey("ci").value() == false);
    });
}

}  // namespace svc::contract
