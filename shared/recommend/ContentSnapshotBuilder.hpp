#pragma once
// Builds a ContentSnapshot from the catalog's live products, either from scratch or
// from the previous snapshot, recomputing only what changed: an article whose stock
// or prices changed gets a new availability and nothing else; one whose descriptive
// fields changed gets a new profile, a new SIMILAR list, and a place in the lists of
// its kind's other articles. Pure computation: the host streams the products in and
// may hand in a parallel-for to spread the list computation over threads.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "catalog/Product.hpp"
#include "recommend/ContentSnapshot.hpp"

namespace svc {

// Runs work(0..count-1), in any order, possibly concurrently; returns when all are done.
using ParallelFor = std::function<void(size_t count, const std::function<void(size_t)>& work)>;

struct ContentInputs {
    std::shared_ptr<const std::vector<SetTemplate>> templates;
    std::vector<CustomSet> customSets;
    std::shared_ptr<const std::vector<PhotoSet>> photoSets;
    // Purchased SKUs per order (any SKU of an article), oldest first.
    std::vector<std::vector<std::string>> orders;
    // Availability follows this clock at query time (the 24-hour rule); null: as built.
    const Clock* clock = nullptr;
};

class ContentSnapshotBuilder {
public:
    // `previous` null: a full build (the feature space is trained anew). With a previous
    // snapshot and `changedOnly`, add() gives only the articles that changed (deleted
    // variants included), and every other article stands as it was; otherwise add() gives
    // every article, and one not given is no longer listed.
    explicit ContentSnapshotBuilder(std::shared_ptr<const ContentSnapshot> previous, ParallelFor parallel = nullptr,
                                    bool changedOnly = false);
    // Products, variants of one main SKU consecutive (in any order); deleted ones are skipped
    // (an article whose variants are all deleted is gone).
    void add(Product product);
    std::shared_ptr<ContentSnapshot> build(const ContentInputs& inputs);

private:
    struct Pending {
        std::vector<Product> variants;
    };
    void finishArticle();
    void computeLists(ContentSnapshot& snapshot, const std::vector<uint32_t>& dirty, const std::vector<uint32_t>& oldKinds);
    // Incremental builds: the recomputed rows' articles move within the other lists.
    void mergeIntoLists(ContentSnapshot& snapshot, const std::vector<uint32_t>& rows, const std::vector<std::vector<Neighbour>>& rowScores,
                        const std::vector<uint32_t>& oldKinds);
    void buildPools(ContentSnapshot& snapshot) const;
    void resolveCustomSets(ContentSnapshot& snapshot, const std::vector<CustomSet>& sets) const;

    std::shared_ptr<const ContentSnapshot> previous_;
    ParallelFor parallel_;
    bool changedOnly_ = false;
    std::vector<std::string> gone_;  // main SKUs given with every variant deleted
    std::vector<Product> current_;  // variants of the article being read
    // Articles read so far: the slim article, hashes, and the full first variant when
    // its profile must be computed.
    struct Read {
        std::shared_ptr<const Article> article;
        uint64_t featureHash = 0;
        uint64_t contentHash = 0;
        bool available = false;
        int64_t availableUntil = INT64_MAX;
        std::unique_ptr<Product> source;  // set when the profile must be (re)computed
    };
    std::vector<Read> read_;
};

}  // namespace svc
