#include "evaluation/BasketEvaluation.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "evaluation/EvalRandom.hpp"
#include "feed/FeedParser.hpp"
#include "recommend/RecommendationService.hpp"
#include "sets/SetJson.hpp"

namespace svc::evaluation {
namespace {

constexpr size_t kListLength = 10;
constexpr size_t kTypePositions = 5;

enum Method : size_t { kSet, kSimilar, kItemCooccurrence, kTypeCooccurrence, kPopularity, kSameTypePopularity, kRandom, kMethods };
const char* const kMethodNames[kMethods] = {"SET",        "SIMILAR",             "item co-occurrence", "type co-occurrence",
                                            "popularity", "same-type popularity", "random"};

// Per basket sums, so that a bootstrap resample of baskets only adds them up.
enum Figure : size_t { kPairs, kDifferentPairs, kSetType, kFiveTypes, kKindOracleHit, kKindOracleRr, kBoughtDifferent, kMixOracleHit, kMixOracleRr, kMethodBase };
size_t hitIndex(size_t method, bool differentType) { return kMethodBase + method * 4 + (differentType ? 2 : 0); }
size_t rrIndex(size_t method, bool differentType) { return hitIndex(method, differentType) + 1; }
constexpr size_t kFigures = kMethodBase + kMethods * 4;

class FixedSource : public ContentSource {
public:
    explicit FixedSource(std::shared_ptr<const ContentSnapshot> snapshot) : snapshot_(std::move(snapshot)) {}
    Result<std::shared_ptr<const ContentSnapshot>> snapshot(int64_t) override { return snapshot_; }

private:
    std::shared_ptr<const ContentSnapshot> snapshot_;
};

std::vector<Product> productsOf(const HmBaskets& data) {
    FeedParser parser(FeedImportOptions{});
    std::vector<MappedRow> rows;
    std::string feed = data.feedCsv();
    if (!parser.parse(feed, rows).ok() || !parser.finish(rows).ok()) throw std::runtime_error("the generated H&M feed does not parse");
    std::vector<Product> products;
    for (auto& row : rows) {
        if (auto* product = std::get_if<Product>(&row.content)) products.push_back(std::move(*product));
    }
    if (products.size() != data.articles().size()) throw std::runtime_error("the generated H&M feed lost rows");
    std::sort(products.begin(), products.end(),
              [](const auto& a, const auto& b) { return a.mainSku != b.mainSku ? a.mainSku < b.mainSku : a.sku < b.sku; });
    return products;
}

bool adultsClash(const std::string& a, const std::string& b) {
    auto women = [](const std::string& g) { return g == "Ladieswear" || g == "Divided"; };
    return (women(a) && b == "Menswear") || (a == "Menswear" && women(b));
}

// What the training baskets of one fold teach the baselines.
struct Baselines {
    std::vector<double> popularity;
    std::vector<std::unordered_map<size_t, double>> together;             // per article
    std::map<std::string, std::map<std::string, double>> typesTogether;  // per type, baskets holding both
    std::vector<size_t> byPopularity;                                     // bought articles, most bought first
    std::map<std::string, std::vector<size_t>> typeByPopularity;         // the same per product type
};

Baselines learnBaselines(const HmBaskets& data, const std::vector<const HmBasket*>& training) {
    const auto& articles = data.articles();
    Baselines b;
    b.popularity.assign(articles.size(), 0);
    b.together.resize(articles.size());
    for (const HmBasket* basket : training) {
        for (size_t a : basket->articles) b.popularity[a] += 1;
        if (basket->articles.size() < 2) continue;
        std::vector<std::string> types;
        for (size_t a : basket->articles) {
            for (size_t c : basket->articles) {
                if (a != c) b.together[a][c] += 1;
            }
            types.push_back(articles[a].productType);
        }
        std::sort(types.begin(), types.end());
        types.erase(std::unique(types.begin(), types.end()), types.end());
        for (const auto& t : types) {
            for (const auto& u : types) {
                if (t != u) b.typesTogether[t][u] += 1;
            }
        }
    }
    for (size_t a = 0; a < articles.size(); ++a) {
        if (b.popularity[a] > 0) b.byPopularity.push_back(a);
    }
    std::stable_sort(b.byPopularity.begin(), b.byPopularity.end(), [&](size_t x, size_t y) { return b.popularity[x] > b.popularity[y]; });
    for (size_t a : b.byPopularity) b.typeByPopularity[articles[a].productType].push_back(a);
    return b;
}

// Types bought with `type` (never itself), most often first, ties by name.
std::vector<std::string> typesBoughtWith(const Baselines& b, const std::string& type, size_t limit) {
    std::vector<std::pair<double, std::string>> ranked;
    auto found = b.typesTogether.find(type);
    if (found != b.typesTogether.end()) {
        for (const auto& [other, count] : found->second) ranked.emplace_back(-count, other);
    }
    std::sort(ranked.begin(), ranked.end());
    std::vector<std::string> types;
    for (size_t i = 0; i < ranked.size() && types.size() < limit; ++i) types.push_back(ranked[i].second);
    return types;
}

std::vector<size_t> topExcept(const std::vector<size_t>& ranked, size_t anchor, size_t limit) {
    std::vector<size_t> list;
    for (size_t a : ranked) {
        if (list.size() >= limit) break;
        if (a != anchor) list.push_back(a);
    }
    return list;
}

Interval percentile(std::vector<double> values, double value) {
    std::sort(values.begin(), values.end());
    auto at = [&](double q) { return values[static_cast<size_t>(std::floor(q * static_cast<double>(values.size() - 1)))]; };
    return {value, at(0.025), at(0.975)};
}

}  // namespace

std::vector<SetTemplate> contentPoolTemplates() {
    std::ifstream in(std::string(SVC_SOURCE_DIR) + "/native-server/content-pool/fashion.json");
    std::stringstream text;
    text << in.rdbuf();
    auto file = setFileFromJson(text.str());
    if (!file.ok()) throw std::runtime_error("content pool: " + file.error().message);
    return file->templates;
}

const MethodFigures& BasketEvaluationReport::method(const std::string& name) const {
    for (const auto& m : methods) {
        if (m.name == name) return m;
    }
    throw std::out_of_range("no method " + name);
}

BasketEvaluationReport evaluateBaskets(const HmBaskets& data, const std::vector<SetTemplate>& templates,
                                       const BasketEvaluationOptions& options) {
    const auto& articles = data.articles();
    const std::vector<Product> products = productsOf(data);
    auto pool = std::make_shared<const std::vector<SetTemplate>>(templates);

    // Customers into folds: a seeded shuffle of the baskets (sorted by customer), dealt round.
    std::vector<size_t> order(data.baskets().size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    EvalRng shuffleRng(options.seed);
    for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[shuffleRng.below(i)]);
    std::vector<size_t> foldOf(order.size());
    for (size_t i = 0; i < order.size(); ++i) foldOf[order[i]] = i % options.folds;

    BasketEvaluationReport report;
    std::vector<std::array<double, kFigures>> perBasket;
    for (size_t fold = 0; fold < options.folds; ++fold) {
        std::vector<const HmBasket*> training;
        std::vector<const HmBasket*> testing;
        for (size_t i = 0; i < data.baskets().size(); ++i) {
            const HmBasket& basket = data.baskets()[i];
            if (foldOf[i] != fold) training.push_back(&basket);
            else if (basket.articles.size() >= 2) testing.push_back(&basket);
        }
        // The engine learns as svc-server does: the orders' SKUs into the snapshot build.
        ContentSnapshotBuilder builder(nullptr, options.parallel);
        for (const auto& product : products) builder.add(product);
        ContentInputs inputs;
        inputs.templates = pool;
        for (const HmBasket* basket : training) {
            std::vector<std::string> skus;
            for (size_t a : basket->articles) skus.push_back(articles[a].sku());
            inputs.orders.push_back(std::move(skus));
        }
        auto snapshot = builder.build(inputs);
        report.articlePriorOrders.push_back(snapshot->purchases().articlePriorOrders());
        FixedSource source(std::move(snapshot));
        RecommendationService service(source);
        const Baselines baselines = learnBaselines(data, training);
        // For a bound only: per anchor type, how many of the held-out pairs' targets are of each other type.
        std::map<std::string, std::map<std::string, double>> heldOutTypeMix;
        for (const HmBasket* basket : testing) {
            for (size_t x : basket->articles) {
                for (size_t y : basket->articles) {
                    if (x != y && articles[x].productType != articles[y].productType) heldOutTypeMix[articles[x].productType][articles[y].productType] += 1;
                }
            }
        }
        std::map<std::string, double> typeLines;
        for (size_t a : baselines.byPopularity) typeLines[articles[a].productType] += baselines.popularity[a];
        EvalRng randomRng(options.seed + 1000 + fold);

        for (const HmBasket* basket : testing) {
            std::array<double, kFigures> sums{};
            for (size_t anchor : basket->articles) {
                const HmArticle& anchorArticle = articles[anchor];
                std::vector<std::vector<size_t>> lists(kMethods);
                auto found = service.findArticle(0, anchorArticle.mainSku());
                std::vector<std::string> setTypes;
                ++report.anchorsAsked;
                if (found.ok() && *found) {
                    const ArticleRef& ref = **found;
                    auto clusters = service.clusters(ref, 8, kListLength);
                    if (!clusters.empty()) report.setCoverage += 1;
                    // SET as a ranked list, as the engine ranks it (RecommendationService::rankedComplements).
                    for (uint32_t index : RecommendationService::rankedComplements(clusters, kListLength))
                        lists[kSet].push_back(*data.indexOfMainSku(ref.snapshot->entry(index).article->mainSku));
                    for (const auto& cluster : clusters) {
                        for (uint32_t index : cluster.articles) {
                            const HmArticle& product = articles[*data.indexOfMainSku(ref.snapshot->entry(index).article->mainSku)];
                            if (adultsClash(anchorArticle.indexGroup, product.indexGroup)) ++report.genderClashes;
                            if (product.productType == anchorArticle.productType) ++report.ownTypeProducts;
                        }
                        if (setTypes.size() < kTypePositions && !cluster.articles.empty())
                            setTypes.push_back(articles[*data.indexOfMainSku(ref.snapshot->entry(cluster.articles.front()).article->mainSku)].productType);
                    }
                    for (const auto& similar : service.similarTo(ref, kListLength))
                        lists[kSimilar].push_back(*data.indexOfMainSku(similar.article().mainSku));
                }
                // Item co-occurrence: most often bought with the anchor, ties by popularity; nothing else.
                std::vector<std::pair<double, size_t>> together;
                for (const auto& [other, count] : baselines.together[anchor]) together.emplace_back(-(count + 1e-6 * baselines.popularity[other]), other);
                std::sort(together.begin(), together.end());
                for (size_t i = 0; i < together.size() && i < kListLength; ++i) lists[kItemCooccurrence].push_back(together[i].second);
                // Type co-occurrence: the most bought article of each type bought with the anchor's, then the second, ...
                const auto types = typesBoughtWith(baselines, anchorArticle.productType, kListLength);
                for (size_t rank = 0; lists[kTypeCooccurrence].size() < kListLength; ++rank) {
                    bool any = false;
                    for (const auto& type : types) {
                        const auto& members = baselines.typeByPopularity.at(type);
                        if (rank >= members.size() || lists[kTypeCooccurrence].size() >= kListLength) continue;
                        any = true;
                        lists[kTypeCooccurrence].push_back(members[rank]);
                    }
                    if (!any) break;
                }
                lists[kPopularity] = topExcept(baselines.byPopularity, anchor, kListLength);
                auto sameType = baselines.typeByPopularity.find(anchorArticle.productType);
                if (sameType != baselines.typeByPopularity.end()) lists[kSameTypePopularity] = topExcept(sameType->second, anchor, kListLength);
                while (lists[kRandom].size() < kListLength) {
                    size_t pick = randomRng.below(articles.size());
                    if (pick != anchor && std::find(lists[kRandom].begin(), lists[kRandom].end(), pick) == lists[kRandom].end())
                        lists[kRandom].push_back(pick);
                }
                const auto fiveTypes = typesBoughtWith(baselines, anchorArticle.productType, kTypePositions);
                // The bound of kind-then-article lists: the held-out pairs' mix of target types for the anchor's
                // type (known only to an oracle) times each article's share of its type while learning.
                std::vector<size_t> mixOracle;
                {
                    std::vector<std::pair<double, size_t>> scored;
                    for (const auto& [type, count] : heldOutTypeMix[anchorArticle.productType]) {
                        auto members = baselines.typeByPopularity.find(type);
                        if (members == baselines.typeByPopularity.end()) continue;
                        for (size_t a : topExcept(members->second, anchor, kListLength))
                            scored.emplace_back(-count * baselines.popularity[a] / typeLines[type], a);
                    }
                    std::sort(scored.begin(), scored.end());
                    for (size_t i = 0; i < scored.size() && i < kListLength; ++i) mixOracle.push_back(scored[i].second);
                }

                for (size_t target : basket->articles) {
                    if (target == anchor) continue;
                    const bool different = articles[target].productType != anchorArticle.productType;
                    sums[kPairs] += 1;
                    if (different) {
                        sums[kDifferentPairs] += 1;
                        const auto& type = articles[target].productType;
                        sums[kSetType] += std::count(setTypes.begin(), setTypes.end(), type) ? 1 : 0;
                        sums[kFiveTypes] += std::count(fiveTypes.begin(), fiveTypes.end(), type) ? 1 : 0;
                        // Bounds for lists that never offer the anchor's type: told the target's type, its 10 most
                        // bought articles; told the target itself, a hit whenever it was bought while learning.
                        if (auto members = baselines.typeByPopularity.find(type); members != baselines.typeByPopularity.end()) {
                            const auto oracle = topExcept(members->second, anchor, kListLength);
                            if (auto at = std::find(oracle.begin(), oracle.end(), target); at != oracle.end()) {
                                sums[kKindOracleHit] += 1;
                                sums[kKindOracleRr] += 1.0 / static_cast<double>(at - oracle.begin() + 1);
                            }
                        }
                        sums[kBoughtDifferent] += baselines.popularity[target] > 0 ? 1 : 0;
                        if (auto at = std::find(mixOracle.begin(), mixOracle.end(), target); at != mixOracle.end()) {
                            sums[kMixOracleHit] += 1;
                            sums[kMixOracleRr] += 1.0 / static_cast<double>(at - mixOracle.begin() + 1);
                        }
                    }
                    for (size_t m = 0; m < kMethods; ++m) {
                        auto at = std::find(lists[m].begin(), lists[m].end(), target);
                        if (at == lists[m].end()) continue;
                        double rr = 1.0 / static_cast<double>(at - lists[m].begin() + 1);
                        sums[hitIndex(m, false)] += 1;
                        sums[rrIndex(m, false)] += rr;
                        if (different) {
                            sums[hitIndex(m, true)] += 1;
                            sums[rrIndex(m, true)] += rr;
                        }
                    }
                }
            }
            perBasket.push_back(sums);
        }
    }
    report.baskets = perBasket.size();
    if (report.anchorsAsked) report.setCoverage /= static_cast<double>(report.anchorsAsked);

    // Every statistic is a ratio of sums over baskets; a resample draws baskets with replacement.
    using Totals = std::array<double, kFigures>;
    auto total = [&](const std::vector<size_t>* draw) {
        Totals t{};
        for (size_t i = 0; i < perBasket.size(); ++i) {
            const auto& sums = perBasket[draw ? (*draw)[i] : i];
            for (size_t f = 0; f < kFigures; ++f) t[f] += sums[f];
        }
        return t;
    };
    auto ratio = [](double x, double n) { return n > 0 ? x / n : 0.0; };
    struct Statistic {
        std::function<double(const Totals&)> of;
        Interval* into;
        std::vector<double> samples;
    };
    report.methods.resize(kMethods);
    std::vector<Statistic> statistics;
    for (size_t m = 0; m < kMethods; ++m) {
        auto& figures = report.methods[m];
        figures.name = kMethodNames[m];
        statistics.push_back({[=](const Totals& t) { return ratio(t[hitIndex(m, false)], t[kPairs]); }, &figures.hitRate, {}});
        statistics.push_back({[=](const Totals& t) { return ratio(t[rrIndex(m, false)], t[kPairs]); }, &figures.mrr, {}});
        statistics.push_back({[=](const Totals& t) { return ratio(t[hitIndex(m, true)], t[kDifferentPairs]); }, &figures.hitRateDifferentType, {}});
        statistics.push_back({[=](const Totals& t) { return ratio(t[rrIndex(m, true)], t[kDifferentPairs]); }, &figures.mrrDifferentType, {}});
    }
    statistics.push_back({[=](const Totals& t) { return ratio(t[hitIndex(kSet, false)] - t[hitIndex(kItemCooccurrence, false)], t[kPairs]); },
                          &report.setMinusCooccurrenceHitRate, {}});
    statistics.push_back({[=](const Totals& t) { return ratio(t[rrIndex(kSet, false)] - t[rrIndex(kItemCooccurrence, false)], t[kPairs]); },
                          &report.setMinusCooccurrenceMrr, {}});
    statistics.push_back(
        {[=](const Totals& t) { return ratio(t[hitIndex(kSimilar, false)] - t[hitIndex(kSameTypePopularity, false)], t[kPairs]); },
         &report.similarMinusSameTypePopularityHitRate, {}});
    statistics.push_back({[=](const Totals& t) { return ratio(t[kSetType], t[kDifferentPairs]); }, &report.setTypeHitRate, {}});
    statistics.push_back({[=](const Totals& t) { return ratio(t[kFiveTypes], t[kDifferentPairs]); }, &report.fiveTypesHitRate, {}});
    statistics.push_back({[=](const Totals& t) { return ratio(t[kSetType] - t[kFiveTypes], t[kDifferentPairs]); },
                          &report.setMinusFiveTypesHitRate, {}});

    statistics.push_back({[=](const Totals& t) { return ratio(t[kKindOracleHit], t[kPairs]); }, &report.kindOracleHitRate, {}});
    statistics.push_back({[=](const Totals& t) { return ratio(t[kKindOracleRr], t[kPairs]); }, &report.kindOracleMrr, {}});
    statistics.push_back({[=](const Totals& t) { return ratio(t[kBoughtDifferent], t[kPairs]); }, &report.boughtDifferentTypeShare, {}});
    statistics.push_back({[=](const Totals& t) { return ratio(t[kMixOracleHit], t[kPairs]); }, &report.typeMixOracleHitRate, {}});
    statistics.push_back({[=](const Totals& t) { return ratio(t[kMixOracleRr], t[kPairs]); }, &report.typeMixOracleMrr, {}});

    EvalRng bootstrapRng(options.seed + 7);
    std::vector<size_t> draw(perBasket.size());
    for (size_t s = 0; s < options.bootstrapSamples && !perBasket.empty(); ++s) {
        for (auto& d : draw) d = bootstrapRng.below(perBasket.size());
        const Totals t = total(&draw);
        for (auto& statistic : statistics) statistic.samples.push_back(statistic.of(t));
    }
    const Totals all = total(nullptr);
    report.pairs = static_cast<size_t>(all[kPairs]);
    report.differentTypePairs = static_cast<size_t>(all[kDifferentPairs]);
    for (auto& statistic : statistics) {
        double value = statistic.of(all);
        *statistic.into = statistic.samples.empty() ? Interval{value, value, value} : percentile(statistic.samples, value);
    }
    return report;
}

std::string BasketEvaluationReport::text() const {
    std::ostringstream out;
    auto interval = [&](const Interval& i) {
        std::ostringstream s;
        s.setf(std::ios::fixed);
        s.precision(4);
        s << i.value << " [" << i.low << ", " << i.high << "]";
        return s.str();
    };
    out << baskets << " held-out baskets, " << pairs << " pairs (" << differentTypePairs
        << " of different product types); HitRate@10 and MRR by article, 95% bootstrap intervals over baskets\n";
    out << "method | HitRate@10 | MRR | HitRate@10 different types | MRR different types\n";
    for (const auto& m : methods)
        out << m.name << " | " << interval(m.hitRate) << " | " << interval(m.mrr) << " | " << interval(m.hitRateDifferentType) << " | "
            << interval(m.mrrDifferentType) << "\n";
    out << "SET - item co-occurrence: HitRate@10 " << interval(setMinusCooccurrenceHitRate) << ", MRR " << interval(setMinusCooccurrenceMrr)
        << "\n";
    out << "SIMILAR - same-type popularity: HitRate@10 " << interval(similarMinusSameTypePopularityHitRate) << "\n";
    out << "type level (different-type pairs): SET's first 5 positions " << interval(setTypeHitRate)
        << ", the 5 types most bought with the anchor's " << interval(fiveTypesHitRate) << ", difference "
        << interval(setMinusFiveTypesHitRate) << "\n";
    out << "SET coverage " << setCoverage << " of " << anchorsAsked << " anchors asked, gender clashes " << genderClashes
        << ", products of the anchor's own type " << ownTypeProducts << "\n";
    out << "bounds over all pairs for lists that never offer the anchor's type: told the target's type, its 10 most bought articles "
        << "HitRate@10 " << interval(kindOracleHitRate) << ", MRR " << interval(kindOracleMrr)
        << "; told the held-out pairs' mix of target types per anchor type, types x best sellers HitRate@10 "
        << interval(typeMixOracleHitRate) << ", MRR " << interval(typeMixOracleMrr)
        << "; told the target, a hit whenever it was bought while learning " << interval(boughtDifferentTypeShare) << "\n";
    out << "article-level prior strength estimated per fold (orders):";
    for (double m : articlePriorOrders) out << " " << m;
    out << "\n";
    return out.str();
}

}  // namespace svc::evaluation
