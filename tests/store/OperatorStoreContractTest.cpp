// The OperatorStore contract (shared/store/OperatorStore.hpp) on every backend.
#include "StoreBackends.hpp"

namespace svc::contract {

TEST_CASE("OperatorStore: e-mail addresses are unique case-insensitively; unknown ones are not found") {
    forEachBackend([](Backend& backend) {
        OperatorStore& operators = backend.storage->operators();
        auto created = operators.createOperator("Ann@Example.com", "hash-a", 100);
        REQUIRE(created);
        CHECK(created->id > 0);
        auto duplicate = operators.createOperator("ann@example.COM", "hash-b", 101);
        REQUIRE_FALSE(duplicate);
        CHECK(duplicate.error().code == ErrorCode::AlreadyExists);
        CHECK(duplicate.error().message.find("ann@example.COM") != std::string::npos);
        auto found = operators.findOperator("ANN@example.com");
        REQUIRE(found);
        REQUIRE(*found);
        CHECK((*found)->passwordHash == "hash-a");
        CHECK(operators.findOperator("nobody@example.com").value() == std::nullopt);
        CHECK(operators.findOperatorById(created->id + 1000).value() == std::nullopt);
        auto missing = operators.deleteOperator(created->id + 1000);
        REQUIRE_FALSE(missing);
        CHECK(missing.error().code == ErrorCode::NotFound);
    });
}

TEST_CASE("OperatorStore: the list is oldest first and leaves hashes out") {
    forEachBackend([](Backend& backend) {
        OperatorStore& operators = backend.storage->operators();
        REQUIRE(operators.createOperator("late@example.com", "h", 300));
        REQUIRE(operators.createOperator("early@example.com", "h", 100));
        REQUIRE(operators.createOperator("middle@example.com", "h", 200));
        auto listed = operators.listOperators();
        REQUIRE(listed);
        std::vector<std::string> emails;
        for (const auto& account : *listed) {
            emails.push_back(account.email);
            CHECK(account.passwordHash.empty());
        }
        CHECK(emails == std::vector<std::string>{"early@example.com", "middle@example.com", "late@example.com"});
    });
}

TEST_CASE("OperatorStore: hostile e-mail addresses and hashes are stored as given") {
    forEachBackend([](Backend& backend) {
        OperatorStore& operators = backend.storage->operators();
        int64_t now = 10;
        for (const auto& text : hostileStrings()) {
            std::string email = text.substr(0, 200) + "@x";
            auto created = operators.createOperator(email, text, ++now);
            REQUIRE(created);
            auto found = operators.findOperatorById(created->id);
            REQUIRE(found);
            REQUIRE(*found);
            CHECK((*found)->email == email);
            CHECK((*found)->passwordHash == text);
        }
    });
}

TEST_CASE("OperatorStore: sign-in attempts count atomically, lock past the limit, and clear on success") {
    forEachBackend([](Backend& backend) {
        OperatorStore& operators = backend.storage->operators();
        auto account = operators.createOperator("op@example.com", "h", 0).value();
        for (int attempt = 1; attempt <= 3; ++attempt) {
            auto reservation = operators.reserveSignIn(account.id, 1000, 3, 2000);
            REQUIRE(reservation);
            CHECK(reservation->allowed);
            CHECK(reservation->attempt == attempt);
        }
        auto fourth = operators.reserveSignIn(account.id, 1000, 3, 2000);
        REQUIRE(fourth);
        CHECK_FALSE(fourth->allowed);
        CHECK(fourth->lockedUntil == 2000);
        CHECK_FALSE(operators.reserveSignIn(account.id, 1500, 3, 2500)->allowed);  // still locked
        auto after = operators.reserveSignIn(account.id, 2000, 3, 3000);
        REQUIRE(after);
        CHECK(after->allowed);
        CHECK(after->attempt == 1);
        REQUIRE(operators.recordSignIn(account.id, 2001));
        CHECK(operators.reserveSignIn(account.id, 2002, 3, 3000)->attempt == 1);
    });
}

TEST_CASE("OperatorStore: sessions are found until they expire; a new password ends all but the kept one") {
    forEachBackend([](Backend& backend) {
        OperatorStore& operators = backend.storage->operators();
        auto account = operators.createOperator("op@example.com", "h", 0).value();
        for (const char* token : {"t1", "t2", "t3"}) REQUIRE(operators.createSession({token, account.id, "", "csrf", 100, 200}));
        auto live = operators.findSession("t1", 199);
        REQUIRE(live);
        REQUIRE(*live);
        CHECK((*live)->email == "op@example.com");
        CHECK((*live)->csrfToken == "csrf");
        CHECK(operators.findSession("t1", 200).value() == std::nullopt);
        CHECK(operators.findSession("unknown", 150).value() == std::nullopt);
        REQUIRE(operators.setPassword(account.id, "h2", "t2"));
        CHECK(operators.findSession("t1", 150).value() == std::nullopt);
        CHECK(operators.findSession("t2", 150).value() != std::nullopt);
        CHECK(operators.findSession("t3", 150).value() == std::nullopt);
        REQUIRE(operators.deleteOperator(account.id));
        CHECK(operators.findSession("t2", 150).value() == std::nullopt);
    });
}

TEST_CASE("OperatorStore: set previews are found until they expire, by any process; the oldest go past the limit") {
    forEachBackend([](Backend& backend) {
        OperatorStore& operators = backend.storage->operators();
        Tenant tenant = newTenant(*backend.storage, "previews");
        for (const auto& text : hostileStrings()) {
            REQUIRE(operators.putSetPreview("hash-" + std::to_string(text.size()), SetPreviewDraft{tenant.id, text, 500}, 100, 50));
            auto found = operators.findSetPreview("hash-" + std::to_string(text.size()), 100);
            REQUIRE(found);
            REQUIRE(*found);
            CHECK((*found)->draftJson == text);
            CHECK((*found)->tenantId == tenant.id);
        }
        // Another node (another Storage on the same backend) opens what this one stored.
        auto other = backend.openAnother();
        CHECK(other->operators().findSetPreview("hash-3000", 499).value().has_value());
        CHECK_FALSE(other->operators().findSetPreview("hash-3000", 500).value().has_value());
        CHECK_FALSE(other->operators().findSetPreview("unknown", 100).value().has_value());
        // Past maxLive the oldest live drafts go; the newest maxLive stay.
        for (int draft = 0; draft < 5; ++draft) {
            REQUIRE(operators.putSetPreview("bounded-" + std::to_string(draft), SetPreviewDraft{tenant.id, "{}", 10'000}, 200 + draft, 3));
        }
        std::vector<std::string> live;
        for (int draft = 0; draft < 5; ++draft) {
            if (operators.findSetPreview("bounded-" + std::to_string(draft), 300).value()) live.push_back(std::to_string(draft));
        }
        CHECK(live == std::vector<std::string>{"2", "3", "4"});
    });
}

TEST_CASE("OperatorStore: the expiry sweeps delete the sessions and set previews expired by `now`, and only those") {
    forEachBackend([](Backend& backend) {
        OperatorStore& operators = backend.storage->operators();
        Tenant tenant = newTenant(*backend.storage, "sweeps");
        auto account = operators.createOperator("sweep@example.com", "h", 0).value();
        REQUIRE(operators.createSession({"ends-200", account.id, "", "csrf", 100, 200}));
        REQUIRE(operators.createSession({"ends-201", account.id, "", "csrf", 100, 201}));
        REQUIRE(operators.putSetPreview("draft-200", SetPreviewDraft{tenant.id, "{}", 200}, 100, 50));
        REQUIRE(operators.putSetPreview("draft-201", SetPreviewDraft{tenant.id, "{}", 201}, 100, 50));
        REQUIRE(operators.deleteExpiredSessions(200));
        REQUIRE(operators.deleteExpiredSetPreviews(200));
        // Read as of an earlier moment: a row still stored would be found; a swept one is gone.
        CHECK(operators.findSession("ends-200", 150).value() == std::nullopt);
        CHECK(operators.findSession("ends-201", 150).value() != std::nullopt);
        CHECK_FALSE(operators.findSetPreview("draft-200", 150).value().has_value());
        CHECK(operators.findSetPreview("draft-201", 150).value().has_value());
    });
}

}  // namespace svc::contract
