#pragma once
// SET content: for an anchor, clusters of products that complete it (for jeans: tops,
// shoes, belts), each a position with its alternatives, best first. Before the tenant has
// enough orders (cold start), positions come from the operator's set templates matched
// through the content-pool fields, then kinds that appear together in the tenant's custom
// sets. Once it has (CoPurchaseModel::ready), positions are the kinds most likely bought
// with the anchor's kind, estimated from its orders and shrunk toward those curated
// positions and the kinds' shares, so thin data stays close to the curated choice (ADR
// 0073). Every product keeps the anchor's department and occasion and never shares the
// anchor's kind.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "recommend/ContentSnapshot.hpp"

namespace svc {

struct ComplementCluster {
    std::string id;      // stable per anchor and position: "<main SKU>#<position>"
    std::string name;    // the position: the template slot's name or the kind
    std::string source;  // "template:<id>", "custom-sets" or "purchases"
    std::vector<std::string> tags;  // the template's tags
    std::vector<uint32_t> articles;  // best first; the first is the set's pick
    // Learned positions only (empty before the tenant has enough orders): the smoothed probability
    // that an order with the anchor's kind holds this position's kind, and per article the smoothed
    // probability that it is the one bought in this position, so one ranked list can weigh an article
    // of a likely position against the second article of a likelier one.
    double likelihood = 0;
    std::vector<double> shares;
};

class ComplementFinder {
public:
    // One finder per answer: it keeps scratch space between positions, so it is not shared across threads.
    explicit ComplementFinder(const ContentSnapshot& snapshot) : snapshot_(snapshot), now_(snapshot.now()) {}
    std::vector<ComplementCluster> clusters(uint32_t anchor, size_t maxClusters, size_t perCluster) const;

    // Candidates scored per position, and candidates looked at (scored or filtered out):
    // together they bound the time of one answer whatever the catalog size.
    static constexpr size_t kScanLimit = 250;
    static constexpr size_t kVisitLimit = 4 * kScanLimit;
    // Products ranked per position (the most a GraphQL page may ask for).
    static constexpr size_t kClusterDepth = 100;
    // The weight, in orders, of the prior of the kind-level estimate (Dirichlet smoothing):
    // a kind bought with the anchor's kind in a handful of orders moves the content pool's
    // choice a little, in hundreds it decides. Chosen a priori; the article level's is
    // estimated from the tenant's orders (CoPurchaseModel::articlePriorOrders).
    static constexpr double kPriorOrders = 10;

private:
    // What a position requires of its candidates besides being available.
    struct Position {
        const std::vector<ColorFamily>* preferredColors = nullptr;
        const CompiledTemplate* compiled = nullptr;  // occasions and departments of a template position
        // Learned positions: articles scored by (evidence + prior strength x share of the kind) /
        // (evidence of the kind + prior strength), the evidence being what was bought with the anchor.
        const std::unordered_map<uint32_t, double>* evidence = nullptr;
        double kindEvidence = 0;
        uint32_t kind = 0;
    };
    struct Scored {
        double score;
        uint32_t article;
    };
    // Ranks candidates from `lists` (each in order of likelihood), visiting them in turn.
    std::vector<uint32_t> rank(uint32_t anchor, const std::vector<const std::vector<uint32_t>*>& lists, const Position& position,
                               size_t limit, std::vector<double>* scores = nullptr) const;
    // Positions from what the tenant's shoppers buy together: kinds by the smoothed probability
    // of being bought with the anchor's kind (prior: the curated positions and the kinds' shares).
    std::vector<ComplementCluster> learnedClusters(uint32_t anchor, const std::vector<ComplementCluster>& curated, size_t maxClusters) const;
    const ContentSnapshot& snapshot_;
    int64_t now_;
    // Reused by every position of one answer: an answer ranks up to a dozen positions, and a
    // fresh vector each time was a measurable share of the SET widget's time.
    mutable std::vector<Scored> scored_;
};

}  // namespace svc
