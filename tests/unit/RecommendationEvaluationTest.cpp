// Evaluation of the recommendation engine on the real fashion catalog of ../shared
// (issue #5): SIMILAR nDCG@12 against random baselines of the same run, with and without
// 30% of the category paths blanked, and the sanity of complementary sets. Skipped (and
// counted as skipped) when ../shared is absent. Prices, sizes and stock are invented by
// tests/evaluation/FashionCatalog (the catalog has none).
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "evaluation/FashionCatalog.hpp"
#include "evaluation/RankingMetrics.hpp"
#include "evaluation/TwoThreads.hpp"
#include "feed/FeedParser.hpp"
#include "recommend/ContentSnapshotBuilder.hpp"
#include "recommend/RecommendationService.hpp"
#include "sets/SetJson.hpp"
#include "support/Skip.hpp"

using svc::evaluation::FashionCatalog;
using svc::evaluation::FashionItem;

namespace {

constexpr size_t kAnchors = 500;
constexpr uint64_t kSeed = 42;

using svc::evaluation::twoThreads;

std::shared_ptr<const std::vector<svc::SetTemplate>> contentPool() {
    std::ifstream in(std::string(SVC_SOURCE_DIR) + "/native-server/content-pool/fashion.json");
    std::stringstream text;
    text << in.rdbuf();
    auto file = svc::setFileFromJson(text.str());
    REQUIRE_MESSAGE(file.ok(), (file.ok() ? "" : file.error().message));
    return std::make_shared<const std::vector<svc::SetTemplate>>(file->templates);
}

// The catalog's feed through svc's own parser into a snapshot, as an import and a rebuild would.
std::shared_ptr<const svc::ContentSnapshot> buildSnapshot(const FashionCatalog& catalog, double blankShare) {
    svc::evaluation::FeedOptions options;
    options.seed = kSeed;
    options.blankCategoryShare = blankShare;
    std::string feed = catalog.feedCsv(options);
    svc::FeedParser parser(svc::FeedImportOptions{});
    std::vector<svc::MappedRow> rows;
    REQUIRE(parser.parse(feed, rows).ok());
    REQUIRE(parser.finish(rows).ok());
    std::vector<svc::Product> products;
    for (auto& row : rows) {
        if (auto* product = std::get_if<svc::Product>(&row.content)) products.push_back(std::move(*product));
    }
    std::sort(products.begin(), products.end(), [](const auto& a, const auto& b) {
        return a.mainSku != b.mainSku ? a.mainSku < b.mainSku : a.sku < b.sku;
    });
    svc::ContentSnapshotBuilder builder(nullptr, twoThreads());
    for (auto& product : products) builder.add(std::move(product));
    svc::ContentInputs inputs;
    inputs.templates = contentPool();
    return builder.build(inputs);
}

class FixedSource : public svc::ContentSource {
public:
    explicit FixedSource(std::shared_ptr<const svc::ContentSnapshot> snapshot) : snapshot_(std::move(snapshot)) {}
    svc::Result<std::shared_ptr<const svc::ContentSnapshot>> snapshot(int64_t) override { return snapshot_; }

private:
    std::shared_ptr<const svc::ContentSnapshot> snapshot_;
};

std::string& whyNotLoaded() {
    static std::string why;
    return why;
}

std::optional<FashionCatalog> loadCatalog() {
    std::string whyNot;
    auto catalog = FashionCatalog::load(svc::evaluation::defaultFashionCatalogPath(), whyNot);
    if (!catalog) whyNotLoaded() = whyNot;
    return catalog;
}

struct SimilarScores {
    double svc = 0, sameLeaf = 0, overall = 0;
};

SimilarScores evaluateSimilar(const FashionCatalog& catalog, const svc::ContentSnapshot& snapshot) {
    svc::evaluation::RandomBaselines baselines(catalog);
    auto anchors = svc::evaluation::sampleAnchors(catalog, kAnchors, kSeed, [&](const FashionItem& item) { return baselines.sameLeafCount(item) > 0; });
    svc::evaluation::GradeIndex eligible(catalog.all());
    svc::evaluation::EvalRng rng(kSeed);
    SimilarScores scores;
    for (const FashionItem* anchor : anchors) {
        auto index = snapshot.find(anchor->mainSku());
        REQUIRE(index.has_value());
        std::vector<const FashionItem*> recommended;
        for (uint32_t similar : snapshot.similar(*index, 12)) recommended.push_back(catalog.byMainSku(snapshot.entry(similar).article->mainSku));
        scores.svc += svc::evaluation::ndcgAt(12, *anchor, recommended, eligible);
        scores.sameLeaf += svc::evaluation::ndcgAt(12, *anchor, baselines.randomSameLeaf(*anchor, 12, rng), eligible);
        scores.overall += svc::evaluation::ndcgAt(12, *anchor, baselines.randomOverall(12, rng, anchor), eligible);
    }
    double n = static_cast<double>(anchors.size());
    return {scores.svc / n, scores.sameLeaf / n, scores.overall / n};
}

}  // namespace

TEST_CASE("Evaluation: SIMILAR nDCG@12 on the fashion catalog beats the same-leaf baseline (complete and 30% blank categories)" *
          svc::test::needs(svc::test::SkipReason::DataOutsideTheRepository, std::filesystem::exists(svc::evaluation::defaultFashionCatalogPath()), "the fashion catalog of ../shared is absent")) {
    auto catalog = loadCatalog();
    if (!catalog) SVC_SKIP(svc::test::SkipReason::DataOutsideTheRepository, "the fashion catalog of ../shared is absent (" << whyNotLoaded() << ")");
    auto complete = evaluateSimilar(*catalog, *buildSnapshot(*catalog, 0.0));
    MESSAGE("SIMILAR nDCG@12 over " << kAnchors << " anchors: svc " << complete.svc << ", random same leaf " << complete.sameLeaf
                                     << ", random overall " << complete.overall);
    CHECK(complete.svc >= 0.85);
    CHECK(complete.svc >= complete.sameLeaf + 0.05);
    auto blanked = evaluateSimilar(*catalog, *buildSnapshot(*catalog, 0.3));
    MESSAGE("SIMILAR nDCG@12 with 30% of category paths blank: svc " << blanked.svc << ", random same leaf " << blanked.sameLeaf);
    CHECK(blanked.svc >= 0.75);
}

TEST_CASE("Evaluation: complementary sets on the fashion catalog keep kind, gender and breadth" *
          svc::test::needs(svc::test::SkipReason::DataOutsideTheRepository, std::filesystem::exists(svc::evaluation::defaultFashionCatalogPath()), "the fashion catalog of ../shared is absent")) {
    auto catalog = loadCatalog();
    if (!catalog) SVC_SKIP(svc::test::SkipReason::DataOutsideTheRepository, "the fashion catalog of ../shared is absent (" << whyNotLoaded() << ")");
    auto snapshot = buildSnapshot(*catalog, 0.0);
    FixedSource source(snapshot);
    svc::RecommendationService service(source);
    auto anchors = svc::evaluation::sampleAnchors(*catalog, kAnchors, kSeed + 1, [](const FashionItem& item) {
        return item.masterCategory == "Apparel" || item.masterCategory == "Footwear";
    });
    size_t withSet = 0, ownKind = 0, genderClash = 0, sets = 0;
    double distinctCategories = 0;
    for (const FashionItem* anchor : anchors) {
        svc::ArticleRef ref{snapshot, *snapshot->find(anchor->mainSku())};
        auto generated = service.generatedSets(ref, 3);
        if (!generated.empty()) ++withSet;
        for (const auto& set : generated) {
            ++sets;
            std::set<std::string> kinds{anchor->articleType};
            bool sameKind = false, clash = false;
            for (size_t i = 1; i < set.products.size(); ++i) {
                const FashionItem* item = catalog->byMainSku(set.products[i].article().mainSku);
                REQUIRE(item != nullptr);
                sameKind = sameKind || item->articleType == anchor->articleType;
                clash = clash || !svc::evaluation::gendersMatch(anchor->gender, item->gender);
                kinds.insert(item->articleType);
            }
            ownKind += sameKind;
            genderClash += clash;
            distinctCategories += static_cast<double>(kinds.size());
        }
    }
    double coverage = static_cast<double>(withSet) / static_cast<double>(anchors.size());
    double meanCategories = sets ? distinctCategories / static_cast<double>(sets) : 0;
    MESSAGE("SET over " << anchors.size() << " apparel and footwear anchors: with a set " << coverage << ", sets " << sets
                        << ", with the anchor's own article type " << ownKind << ", with a gender clash " << genderClash
                        << ", mean distinct article types per set (anchor included) " << meanCategories);
    CHECK(ownKind == 0);
    CHECK(genderClash == 0);
    CHECK(meanCategories >= 3.0);
    CHECK(coverage >= 0.9);
}
