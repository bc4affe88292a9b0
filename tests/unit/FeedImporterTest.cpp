// Unit tests of feed/FeedImporter, with a recording test double of the storage
// interface (CatalogImport) in place of a database.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "feed/FeedImporter.hpp"

using svc::CatalogImport;
using svc::Error;
using svc::FeedField;
using svc::FeedImporter;
using svc::FeedImportOptions;
using svc::FeedImportReport;
using svc::ImportCounts;
using svc::Product;
using svc::Result;
using svc::RowErrorKind;
using svc::Status;

namespace {

// Records what the importer asks of the store; can be told to fail.
class RecordingImport : public CatalogImport {
public:
    struct Upsert {
        Product product;
        std::set<FeedField> fields;
        bool replaceProperties;
        std::vector<std::string> propertyColumns;
    };
    std::set<std::string> unknownSkus;  // answered UnknownSku
    std::vector<Upsert> upserts;
    int commitCalls = 0;
    std::optional<bool> markMissingDeleted;
    std::optional<size_t> failUpsertNumber;  // 1-based upsert that fails
    std::optional<Error> commitError;
    ImportCounts countsToReturn{3, 2, 1, 0};
    int countMissingCalls = 0;
    int64_t missingToReturn = 4;
    std::optional<Error> countMissingError;

    int64_t liveBefore() const override { return liveBeforeToReturn; }
    int64_t liveBeforeToReturn = 10;

    Result<svc::UpsertOutcome> upsert(const Product& product, const svc::FeedShape& shape) override {
        upserts.push_back({product, shape.fields, !shape.propertyColumns.empty(), shape.propertyColumns});
        if (failUpsertNumber && upserts.size() == *failUpsertNumber) return Error::unavailable("disk full");
        return unknownSkus.count(product.sku) ? svc::UpsertOutcome::UnknownSku : svc::UpsertOutcome::Written;
    }
    ImportCounts pendingCounts() const override { return countsToReturn; }
    Result<int64_t> countMissing(const svc::SkuSet&) override {
        ++countMissingCalls;
        if (countMissingError) return *countMissingError;
        return missingToReturn;
    }
    Result<ImportCounts> commit(const svc::SkuSet* listed) override {
        ++commitCalls;
        markMissingDeleted = listed != nullptr;
        if (commitError) return *commitError;
        return countsToReturn;
    }

    std::vector<std::string> upsertedSkus() const {
        std::vector<std::string> skus;
        for (const auto& upsert : upserts) skus.push_back(upsert.product.sku);
        return skus;
    }
};

Result<FeedImportReport> importAll(RecordingImport& store, const std::string& feed, FeedImportOptions options = {},
                                   size_t chunkSize = 0) {
    FeedImporter importer(store, std::move(options));
    if (chunkSize == 0) chunkSize = feed.size() + 1;
    for (size_t offset = 0; offset < feed.size(); offset += chunkSize) {
        if (!importer.feed(std::string_view(feed).substr(offset, chunkSize))) break;
    }
    return importer.finishReading();
}

FeedImportOptions deltaOptions() {
    FeedImportOptions options;
    options.delta = true;
    return options;
}

std::string readDataFile(const std::string& relativePath) {
    std::ifstream in(std::string(SVC_TEST_DATA_DIR) + "/" + relativePath, std::ios::binary);
    REQUIRE_MESSAGE(in.good(), "cannot open test data " << relativePath);
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

}  // namespace

TEST_CASE("FeedImporter: an unusable header rejects the whole file and nothing is committed") {
    struct HeaderCase {
        const char* name;
        std::string feed;
        std::string message;
    };
    const std::vector<HeaderCase> cases{
        {"missing identifier", "name;stock\nA;1\n", "line 1: header: identifier column 'sku' is missing"},
        {"missing identifier after blank lines", "\n\nname;stock\nA;1\n", "line 3: header: identifier column 'sku' is missing"},
        {"duplicate column", "sku;name;NAME\nA;x;y\n", "line 1: header column 3: column 'name' appears twice"},
        {"empty column name", "sku;;name\nA;x;y\n", "line 1: header column 2: empty column name"},
        {"malformed header", "\"sku\"x;name\nA;x\n", "line 1: header is not valid CSV: unexpected character 'x' after a closing quote"},
        {"unterminated quote in the header", "sku;\"name\n", "line 1: header is not valid CSV: quoted value is never closed"},
        {"empty file", "", "line 1: the feed is empty (no header)"},
        {"only blank lines", "\n\r\n\n", "line 1: the feed is empty (no header)"},
    };
    for (const auto& c : cases) {
        SUBCASE(c.name) {
            RecordingImport store;
            auto result = importAll(store, c.feed);
            REQUIRE_FALSE(result.ok());
            CHECK(result.error().code == svc::ErrorCode::InvalidArgument);
            CHECK(result.error().message == c.message);
            CHECK(store.upserts.empty());
            CHECK(store.commitCalls == 0);
        }
    }
}

TEST_CASE("FeedImporter: feed() reports a header failure at once and keeps failing") {
    RecordingImport store;
    FeedImporter importer(store, {});
    Status first = importer.feed("name;stock\n");
    REQUIRE_FALSE(first.ok());
    CHECK(first.error().message == "line 1: header: identifier column 'sku' is missing");
    Status second = importer.feed("A;1\n");
    REQUIRE_FALSE(second.ok());
    CHECK(second.error().message == first.error().message);
    auto result = importer.finishReading();
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().message == first.error().message);
    CHECK(store.commitCalls == 0);
}

TEST_CASE("FeedImporter: a repeated identifier is rejected with its line; the first row wins") {
    RecordingImport store;
    auto result = importAll(store, "sku;name\nA;first\nB;b\nA;second\n", deltaOptions());
    REQUIRE(result.ok());
    CHECK(result->rowsRead == 3);
    CHECK(result->rejected == 1);
    REQUIRE(result->errors.size() == 1);
    CHECK(result->errors[0].kind == RowErrorKind::DuplicateIdentifier);
    CHECK(result->errors[0].line == 4);
    CHECK(result->errors[0].column == 0);
    CHECK(result->errors[0].message == "sku: 'A' appeared on an earlier line; this row is ignored");
    CHECK(store.upsertedSkus() == std::vector<std::string>{"A", "B"});
    CHECK(store.upserts[0].product.name == "first");
}

TEST_CASE("FeedImporter: the duplicate message names a custom identifier column") {
    RecordingImport store;
    FeedImportOptions options = deltaOptions();
    options.identifier = "product_id";
    auto result = importAll(store, "product_id;name\n7;a\n7;b\n", options);
    REQUIRE(result.ok());
    REQUIRE(result->errors.size() == 1);
    CHECK(result->errors[0].message == "product_id: '7' appeared on an earlier line; this row is ignored");
    CHECK(result->errors[0].line == 3);
}

TEST_CASE("FeedImporter: malformed rows are counted and reading continues") {
    RecordingImport store;
    auto result = importAll(store, "sku;name;stock\nA;\"bad\"x;1\nB;ok;x\nC;ok;2\nD;\"open", {});
    REQUIRE(result.ok());
    CHECK(result->rowsRead == 4);
    CHECK(result->rejected == 3);
    REQUIRE(result->errors.size() == 3);
    CHECK(result->errors[0].kind == RowErrorKind::MalformedQuote);
    CHECK(result->errors[0].line == 2);
    CHECK(result->errors[0].column == 2);
    CHECK(result->errors[0].message == "unexpected character 'x' after a closing quote");
    CHECK(result->errors[1].kind == RowErrorKind::InvalidInteger);
    CHECK(result->errors[1].line == 3);
    CHECK(result->errors[1].column == 3);
    CHECK(result->errors[1].message == "stock: 'x' is not a non-negative integer");
    CHECK(result->errors[2].kind == RowErrorKind::UnterminatedQuote);
    CHECK(result->errors[2].line == 5);
    CHECK(result->errors[2].column == 2);
    CHECK(result->errors[2].message == "quoted value is never closed");
    CHECK(store.upsertedSkus() == std::vector<std::string>{"C"});
    CHECK(store.commitCalls == 0);  // the caller commits, holds or drops
}

TEST_CASE("FeedImporter: delta feeds keep missing products, full feeds mark them deleted") {
    struct ModeCase {
        bool delta;
        bool markMissingDeleted;
    };
    for (const auto& c : std::vector<ModeCase>{{true, false}, {false, true}}) {
        CAPTURE(c.delta);
        RecordingImport store;
        FeedImportOptions options;
        options.delta = c.delta;
        auto result = importAll(store, "sku;stock\nA;1\n", options);
        REQUIRE(result.ok());
        CHECK(store.commitCalls == 0);  // the caller commits, holds or drops
        CHECK(store.countMissingCalls == (c.markMissingDeleted ? 1 : 0));
        // The store's counts reach the report.
        CHECK(result->counts.inserted == 3);
        CHECK(result->counts.updated == 2);
        CHECK(result->counts.unchanged == 1);
        CHECK(result->counts.markedDeleted == (c.markMissingDeleted ? 4 : 0));
    }
}

TEST_CASE("FeedImporter: a full feed without one valid row is refused and not committed") {
    struct RefusalCase {
        const char* name;
        std::string feed;
        std::string message;
    };
    const std::vector<RefusalCase> cases{
        {"header only", "sku;name\n", "the full feed has no valid row (0 rejected); nothing was applied"},
        {"only bad rows", "sku;stock\n;1\nB;x\nC\n", "the full feed has no valid row (3 rejected); nothing was applied"},
    };
    for (const auto& c : cases) {
        SUBCASE(c.name) {
            RecordingImport store;
            auto result = importAll(store, c.feed);
            REQUIRE_FALSE(result.ok());
            CHECK(result.error().code == svc::ErrorCode::InvalidArgument);
            CHECK(result.error().message == c.message);
            CHECK(store.commitCalls == 0);
        }
    }
}

TEST_CASE("FeedImporter: a delta feed without valid rows is reported, not refused (nothing to change)") {
    RecordingImport store;
    auto result = importAll(store, "sku;stock\n;1\n", deltaOptions());
    REQUIRE(result.ok());
    CHECK(result->rowsRead == 1);
    CHECK(result->rejected == 1);
    CHECK(store.commitCalls == 0);  // the caller commits, holds or drops
    CHECK(store.countMissingCalls == 0);
}

TEST_CASE("FeedImporter: upserts carry the feed's fields and whether it has property columns") {
    SUBCASE("partial stock and price feed") {
        RecordingImport store;
        auto result = importAll(store, "sku;stock;discount-price\nA;2;999\n", deltaOptions());
        REQUIRE(result.ok());
        REQUIRE(store.upserts.size() == 1);
        CHECK(store.upserts[0].fields == std::set<FeedField>{FeedField::Sku, FeedField::Stock, FeedField::DiscountPrice});
        CHECK_FALSE(store.upserts[0].replaceProperties);
        CHECK(store.upserts[0].product.stock == 2);
        CHECK(store.upserts[0].product.discountPrice == std::optional<int64_t>(999));
    }
    SUBCASE("feed with a property column") {
        RecordingImport store;
        auto result = importAll(store, "sku;Material\nA;\n", deltaOptions());
        REQUIRE(result.ok());
        REQUIRE(store.upserts.size() == 1);
        CHECK(store.upserts[0].replaceProperties);
        CHECK(store.upserts[0].product.properties.empty());
    }
}

TEST_CASE("FeedImporter: a store failure stops the import and nothing is committed") {
    RecordingImport store;
    store.failUpsertNumber = 2;
    FeedImporter importer(store, {});
    Status status = importer.feed("sku\nA\nB\nC\n");
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().code == svc::ErrorCode::Unavailable);
    CHECK(status.error().message == "disk full");
    auto result = importer.finishReading();
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().message == "disk full");
    CHECK(store.upsertedSkus() == std::vector<std::string>{"A", "B"});
    CHECK(store.commitCalls == 0);
}

TEST_CASE("FeedImporter: a failure counting what a full feed deletes is the result of finishReading()") {
    RecordingImport store;
    store.countMissingError = Error::internal("count failed");
    auto result = importAll(store, "sku\nA\n");
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().code == svc::ErrorCode::Internal);
    CHECK(result.error().message == "count failed");
    CHECK(store.commitCalls == 0);
}

TEST_CASE("exceedsDeleteShare: the truncated-full-feed guard") {
    struct GuardCase {
        int64_t liveBefore;
        int64_t wouldDelete;
        bool delta;
        double share;
        bool held;
    };
    for (const auto& c : std::vector<GuardCase>{{100, 50, false, 0.5, false},
                                                {100, 51, false, 0.5, true},
                                                {100, 51, true, 0.5, false},
                                                {0, 0, false, 0.5, false},
                                                {10, 10, false, 1.0, false},
                                                {10, 1, false, 0.0, true}}) {
        CAPTURE(c.liveBefore);
        CAPTURE(c.wouldDelete);
        FeedImportReport report;
        report.liveBefore = c.liveBefore;
        report.counts.markedDeleted = c.wouldDelete;
        CHECK(svc::exceedsDeleteShare(report, c.delta, c.share) == c.held);
    }
}

TEST_CASE("FeedImporter: only the first kMaxReportedErrors errors are kept, all are counted") {
    std::string feed = "sku;stock\n";
    const size_t bad = FeedImportReport::kMaxReportedErrors + 5;
    for (size_t i = 0; i < bad; ++i) feed += "S" + std::to_string(i) + ";x\n";
    feed += "GOOD;1\n";
    RecordingImport store;
    auto result = importAll(store, feed);
    REQUIRE(result.ok());
    CHECK(result->rowsRead == static_cast<int64_t>(bad + 1));
    CHECK(result->rejected == static_cast<int64_t>(bad));
    REQUIRE(result->errors.size() == FeedImportReport::kMaxReportedErrors);
    CHECK(result->errors.front().line == 2);
    CHECK(result->errors.back().line == FeedImportReport::kMaxReportedErrors + 1);
    CHECK(store.upsertedSkus() == std::vector<std::string>{"GOOD"});
}

TEST_CASE("FeedImporter: a real-world feed file (BOM, CRLF, quoted newline, bad rows) in any chunk size") {
    const std::string feed = readDataFile("feeds/mixed-feed.csv");
    for (size_t chunkSize : {size_t{0}, size_t{1}, size_t{2}, size_t{3}, size_t{7}, size_t{64}}) {
        CAPTURE(chunkSize);
        RecordingImport store;
        auto result = importAll(store, feed, {}, chunkSize);
        REQUIRE(result.ok());
        CHECK(result->rowsRead == 9);
        CHECK(result->rejected == 5);
        struct ExpectedError {
            RowErrorKind kind;
            size_t line;
            size_t column;
            std::string message;
        };
        const std::vector<ExpectedError> expected{
            {RowErrorKind::InvalidInteger, 6, 4, "retail-price: '12,99' is not a non-negative integer number of cents"},
            {RowErrorKind::MissingIdentifier, 7, 1, "sku: identifier is empty"},
            {RowErrorKind::DuplicateIdentifier, 8, 0, "sku: 'J-1-S' appeared on an earlier line; this row is ignored"},
            {RowErrorKind::MalformedQuote, 9, 3, "unexpected character 'x' after a closing quote"},
            {RowErrorKind::TooFewFields, 10, 7, "expected 8 fields, found 7"},
        };
        REQUIRE(result->errors.size() == expected.size());
        for (size_t i = 0; i < expected.size(); ++i) {
            CAPTURE(i);
            CHECK(result->errors[i].kind == expected[i].kind);
            CHECK(result->errors[i].line == expected[i].line);
            CHECK(result->errors[i].column == expected[i].column);
            CHECK(result->errors[i].message == expected[i].message);
        }
        REQUIRE(store.upsertedSkus() == std::vector<std::string>{"J-1-S", "J-1-M", "D-2", "T-6"});
        const Product& jeans = store.upserts[0].product;
        CHECK(jeans.mainSku == "J-1");
        CHECK(jeans.name == "Jeans \"Slim\"");
        CHECK(jeans.retailPrice == std::optional<int64_t>(5999));
        CHECK(jeans.discountPrice == std::optional<int64_t>(4999));
        CHECK(jeans.stock == 3);
        CHECK(jeans.categoryPaths == std::vector<std::string>{"Women > Jeans"});
        CHECK(jeans.properties == std::map<std::string, std::string>{{"material", "Cotton"}});
        const Product& dress = store.upserts[2].product;
        CHECK(dress.mainSku == "D-2");
        CHECK(dress.name == "Dress, long\nwith pockets");
        CHECK_FALSE(dress.discountPrice.has_value());
        CHECK(dress.properties.empty());
        const Product& shirt = store.upserts[3].product;
        CHECK(shirt.name == "Shirt \xC3\xA4");
        CHECK(shirt.sellingPrice() == std::optional<int64_t>(1499));
        CHECK(store.upserts[0].replaceProperties);
        CHECK(store.countMissingCalls == 1);
    }
}

TEST_CASE("FeedImporter: two names of one field are accepted, with one warning per pair for the whole feed") {
    RecordingImport store;
    auto result = importAll(store,
                            "sku;name;kategorie1;category-path;marke;brand\n"
                            "A;Jeans;Hosen;Women > Jeans;Levis DE;Levi's\n"
                            "B;Shirt;Hemden;Men > Shirts;Boss DE;Boss\n",
                            {}, 7);
    REQUIRE(result.ok());
    CHECK(result->rejected == 0);
    CHECK(result->warnings == std::vector<std::string>{
                                  "columns 'kategorie1' and 'category-path' both name the category paths: 'category-path' sets it, "
                                  "'kategorie1' is kept as a property (the content pool reads it)",
                                  "columns 'marke' and 'brand' both name the brand: 'brand' sets it, 'marke' is kept as a property "
                                  "(the content pool reads it)"});
    REQUIRE(store.upserts.size() == 2);
    const Product& jeans = store.upserts[0].product;
    CHECK(jeans.categoryPaths == std::vector<std::string>{"Women > Jeans"});
    CHECK(jeans.brand == "Levi's");
    CHECK(jeans.properties == std::map<std::string, std::string>{{"kategorie1", "Hosen"}, {"marke", "Levis DE"}});
    CHECK(store.upserts[0].propertyColumns == std::vector<std::string>{"kategorie1", "marke"});
}

TEST_CASE("FeedImporter: SKUs the store does not create are reported as unknown_sku rows with line and column") {
    RecordingImport store;
    store.unknownSkus = {"NEW-1"};
    auto result = importAll(store, "stock;sku;discount-price\n2;A;999\n5;NEW-1;100\n", deltaOptions());
    REQUIRE(result.ok());
    CHECK(result->rejected == 0);  // not malformed: the row is fine, its product is unknown
    CHECK(result->describesProducts == std::optional<bool>(false));
    REQUIRE(result->errors.size() == 1);
    CHECK(result->errors[0].kind == RowErrorKind::UnknownSku);
    CHECK(result->errors[0].line == 3);
    CHECK(result->errors[0].column == 2);
    CHECK(result->errors[0].message == "sku: 'NEW-1' is in no feed with product descriptions (a name column); not created");
}
