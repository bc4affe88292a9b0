#include "store/PgCatalogStore.hpp"

#include <set>
#include <unordered_set>

#include "store/CatalogColumns.hpp"
#include "catalog/Availability.hpp"
#include "store/PgCopyBuffer.hpp"
#include "store/PriceHistoryStore.hpp"
#include "text/BoundedJson.hpp"
#include "text/JsonWriter.hpp"

namespace svc {
namespace {

// Beyond this many SKUs an import does not list what it changed (an initial load, a full feed
// seen again after an hour): reading by key would cost about what the scan of the stamps does.
constexpr int64_t kMaxListedChanges = 1 << 14;
// Change lists older than this are dropped (their imports then count as unlisted: a node whose
// cursor is that old scans the stamps instead).
constexpr int64_t kChangeListSeconds = 7 * 24 * 3600;
// Rows staged before a batch is applied: bounds the temporary table of a very large feed.
constexpr int64_t kBatchRows = 200'000;
// An initial load of at least this many rows analyzes its partition (see commit()).
constexpr int64_t kAnalyzeAfterLoad = 1000;
// COPY data handed to libpq in chunks of about this size.
constexpr size_t kCopyChunkBytes = 1 << 20;

#define SVC_PRODUCT_COLUMNS                                                                                                       \
    "sku, main_sku, model, variant, name, deeplink, image, thumbnail, brand, color, description, category_paths, stock, "         \
    "retail_price, discount_price, lowest_price_30d, properties::text, deleted::int, last_seen_at, primary_category"

// The rows of one import, before they are applied (ON COMMIT DELETE ROWS: each transaction
// starts empty; a pooled connection keeps the table). kind: 0 new, 1 changed (or revived),
// 2 unchanged but seen again after an hour, 3 unchanged.
constexpr const char* kStageTables = R"sql(
CREATE TEMP TABLE IF NOT EXISTS catalog_stage_v1 (
    sku text COLLATE "C" NOT NULL,
    main_sku text COLLATE "C",
    model text, variant text, name text, deeplink text, image text, thumbnail text, brand text, color text, description text,
    category_paths text, primary_category text COLLATE "C",
    stock bigint, retail_price bigint, discount_price bigint, lowest_price_30d bigint,
    properties jsonb,
    kind smallint NOT NULL DEFAULT 0,
    was_deleted boolean NOT NULL DEFAULT false,
    old_retail bigint, old_discount bigint, old_updated_at bigint,
    owners text COLLATE "C"
) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE IF NOT EXISTS catalog_listed_v1 (sku text COLLATE "C" NOT NULL) ON COMMIT DELETE ROWS;
)sql";

void copyField(PgCopyBuffer& row, FeedField field, const Product& product) {
    switch (field) {
        case FeedField::Sku: case FeedField::MainSku: return;  // always the first two columns
        case FeedField::Model: row.text(product.model); return;
        case FeedField::Stock: row.integer(product.stock); return;
        case FeedField::Variant: row.text(product.variant); return;
        case FeedField::Name: row.text(product.name); return;
        case FeedField::RetailPrice: row.integer(product.retailPrice); return;
        case FeedField::DiscountPrice: row.integer(product.discountPrice); return;
        case FeedField::Deeplink: row.text(product.deeplink); return;
        case FeedField::Image: row.text(product.image); return;
        case FeedField::Thumbnail: row.text(product.thumbnail); return;
        case FeedField::CategoryPaths:
            // One path lives only in primary_category; several are kept as a JSON array (as on SQLite).
            row.text(product.categoryPaths.size() <= 1 ? std::string() : jsonStringArray(product.categoryPaths));
            row.text(product.primaryCategory());
            return;
        case FeedField::Brand: row.text(product.brand); return;
        case FeedField::Color: row.text(product.color); return;
        case FeedField::Description: row.text(product.description); return;
        case FeedField::LowestPrice30d: row.integer(product.lowestPrice30d); return;
    }
}

std::string propertiesJson(const std::map<std::string, std::string>& properties) {
    std::string json = "{";
    for (const auto& [name, value] : properties) {
        if (json.size() > 1) json += ',';
        appendJsonString(json, name);
        json += ':';
        appendJsonString(json, value);
    }
    json += '}';
    return json;
}

std::vector<std::string> stringArray(const std::string& text) {
    std::vector<std::string> items;
    auto json = BoundedJson::parse(text, "category paths");
    if (json && json->is_array()) {
        for (const auto& item : *json) {
            if (item.is_string()) items.push_back(item.get<std::string>());
        }
    }
    return items;
}

Product readProduct(const PgResult& rows, int row, int64_t now) {
    Product product;
    product.sku = rows.text(row, 0);
    product.mainSku = rows.text(row, 1);
    product.model = rows.text(row, 2);
    product.variant = rows.text(row, 3);
    product.name = rows.text(row, 4);
    product.deeplink = rows.text(row, 5);
    product.image = rows.text(row, 6);
    product.thumbnail = rows.text(row, 7);
    product.brand = rows.text(row, 8);
    product.color = rows.text(row, 9);
    product.description = rows.text(row, 10);
    if (std::string paths = rows.text(row, 11); !paths.empty()) product.categoryPaths = stringArray(paths);
    else if (std::string primary = rows.text(row, 19); !primary.empty()) product.categoryPaths.push_back(std::move(primary));
    product.stock = rows.integer(row, 12);
    auto optional = [&](int column) { return rows.isNull(row, column) ? std::optional<int64_t>() : std::optional<int64_t>(rows.integer(row, column)); };
    product.retailPrice = optional(13);
    product.discountPrice = optional(14);
    product.lowestPrice30d = optional(15);
    if (std::string properties = rows.text(row, 16); properties != "{}") {
        auto json = BoundedJson::parse(properties, "properties");
        if (json && json->is_object()) {
            for (const auto& [name, value] : json->items()) {
                if (value.is_string()) product.properties[name] = value.get<std::string>();
            }
        }
    }
    product.deleted = rows.integer(row, 17) != 0;
    product.lastSeenAt = rows.integer(row, 18);
    product.stale = isStale(product.lastSeenAt, now);
    return product;
}

// Runs `sql` through a cursor, so a catalog of any size streams in slices instead of arriving
// whole. Inside the caller's transaction.
Status forEachRow(PgConnection& connection, std::string_view purpose, const std::string& sql, std::initializer_list<PgParam> params,
                  const std::function<void(const PgResult&, int)>& visit) {
    std::string declare = "DECLARE svc_catalog_rows NO SCROLL CURSOR FOR " + sql;
    if (auto declared = connection.execute(purpose, declare.c_str(), params); !declared) return declared.error();
    while (true) {
        auto slice = connection.execute(purpose, "FETCH 5000 FROM svc_catalog_rows");
        if (!slice) return slice.error();
        for (int row = 0; row < slice->rows(); ++row) visit(*slice, row);
        if (slice->rows() < 5000) break;
    }
    if (auto closed = connection.execute(purpose, "CLOSE svc_catalog_rows"); !closed) return closed.error();
    return Status::success();
}

class PgCatalogImport : public CatalogImport {
public:
    PgCatalogImport(PgDatabase& database, std::unique_ptr<PgConnection> connection, int64_t tenantId, int64_t now, std::string feed)
        : database_(database), connection_(std::move(connection)), tenantId_(tenantId), now_(now), feed_(std::move(feed)) {}

    ~PgCatalogImport() override {
        if (copying_) connection_->abortCopy("the import was dropped");
        if (open_) (void)connection_->execute("drop catalog import", "ROLLBACK");
        database_.giveBack(std::move(connection_));
    }

    Status begin() {
        if (auto begun = connection_->execute("begin catalog import", "BEGIN"); !begun) return begun.error();
        open_ = true;
        if (auto status = connection_->executeScript("begin catalog import: stage tables", kStageTables); !status) return status;
        // The joins of a batch with the catalog hash the tenant's products: in memory, not in batches on disk.
        if (auto memory = connection_->execute("begin catalog import", "SET LOCAL work_mem = '64MB'"); !memory) return memory.error();
        // Each statement of an import runs once per batch: compiling it (the planner takes an
        // unanalyzed stage for millions of rows and crosses jit_above_cost) cost 0.24 s of the
        // 0.37 s a re-sent 44k-row feed's compare took, and is never paid back (ADR 0087).
        if (auto jit = connection_->execute("begin catalog import", "SET LOCAL jit = off"); !jit) return jit.error();
        // One import of a tenant at a time, across nodes: its change sequence is taken and
        // committed before the next import takes one, so a reader that sees a sequence has
        // seen every one before it (no cursor skips a late commit). Released at commit or rollback.
        auto locked = connection_->execute("begin catalog import: wait for the tenant's import lock",
                                           "SELECT pg_advisory_xact_lock(hashtextextended('svc catalog ' || coalesce(current_schema(), '') || ' ' || $1, 0))",
                                           {tenantId_});
        if (!locked) return locked.error();
        auto empty = connection_->execute("begin catalog import", "SELECT (NOT EXISTS (SELECT 1 FROM catalog_products WHERE tenant_id = $1))::int",
                                          {tenantId_});
        if (!empty) return empty.error();
        emptyAtStart_ = empty->integer(0, 0) != 0;
        // An initial load changes everything: nothing to gain from listing it.
        listing_ = !emptyAtStart_;
        auto change = connection_->execute("begin catalog import: take a change sequence",
                                           "INSERT INTO catalog_changes(tenant_id, started_at, listed) VALUES ($1, $2, $3) RETURNING seq",
                                           {tenantId_, now_, listing_ ? "true" : "false"});
        if (!change) return change.error();
        sequence_ = change->integer(0, 0);
        return Status::success();
    }

    Result<UpsertOutcome> upsert(const Product& product, const FeedShape& shape) override {
        if (failure_) return *failure_;
        // Every row of a feed passes the mapper's one shape: compare its address first.
        if (!shaped_ || (&shape != shapeSeen_ && (shape.fields != fields_ || shape.propertyColumns != propertyColumns_))) {
            if (auto status = setShape(shape); !status) return fail(status.error());
        }
        shapeSeen_ = &shape;
        if (!describes_ && !liveSkus_.count(product.sku)) {
            // A stock-and-price feed creates nothing and brings back nothing: only a feed that
            // describes products does (docs/adr/0070). The row is reported, not written.
            ++counts_.unknown;
            return UpsertOutcome::UnknownSku;
        }
        if (!copying_) {
            if (auto status = startCopy(); !status) return fail(status.error());
        }
        buffer_.text(product.sku).text(product.mainSku);
        for (FeedField field : orderedFields_) copyField(buffer_, field, product);
        if (!propertyColumns_.empty()) buffer_.text(propertiesJson(product.properties));
        if (direct_) buffer_.integer(tenantId_).integer(now_).integer(now_).integer(sequence_).text(feed_);
        buffer_.endRow();
        ++staged_;
        if (buffer_.size() >= kCopyChunkBytes) {
            if (auto status = connection_->putCopyData("catalog import: copy rows", buffer_.rows()); !status) return fail(status.error());
            buffer_.clear();
        }
        if (!direct_ && staged_ >= kBatchRows) {
            if (auto status = apply(); !status) return fail(status.error());
        }
        return UpsertOutcome::Written;
    }

    // Counted on first use: only full feeds need it. Rows this import made live (inserted, or
    // revived from deleted) are taken off again, so the figure is the one before the import.
    int64_t liveBefore() const override {
        auto* self = const_cast<PgCatalogImport*>(this);
        if (!liveAtStart_) {
            if (emptyAtStart_) return 0;
            if (!self->settle()) return 0;
            auto count = connection_->execute("catalog import: count live products",
                                              "SELECT count(*) FROM catalog_products WHERE tenant_id = $1 AND NOT deleted", {tenantId_});
            if (!count) {
                self->failure_ = count.error();
                return 0;
            }
            liveAtStart_ = count->integer(0, 0) - counts_.inserted - revived_;
        }
        return *liveAtStart_;
    }

    ImportCounts pendingCounts() const override {
        (void)const_cast<PgCatalogImport*>(this)->settle();
        return counts_;
    }

    Result<int64_t> countMissing(const SkuSet& listedInFeed) override {
        if (auto status = findDropped(listedInFeed); !status) return status.error();
        if (!droppedPossible_) return 0;
        auto count = connection_->execute("catalog import: count products the feed no longer lists",
                                          "SELECT count(*) FROM catalog_products p WHERE p.tenant_id = $1 AND NOT p.deleted "
                                          "AND (p.feeds IS NULL OR p.feeds = $2) "
                                          "AND NOT EXISTS (SELECT 1 FROM catalog_listed_v1 l WHERE l.sku = p.sku)",
                                          {tenantId_, feed_});
        if (!count) return count.error();
        return count->integer(0, 0);
    }

    Result<ImportCounts> commit(const SkuSet* listedInFeed) override {
        if (auto status = settle(); !status) return status.error();
        if (listedInFeed) {
            if (auto status = findDropped(*listedInFeed); !status) return status.error();
            if (droppedPossible_) {
                auto marked = connection_->execute(
                    "catalog import: mark products no feed lists deleted",
                    "WITH gone AS (UPDATE catalog_products p SET deleted = true, updated_at = $3, change_seq = $4 "
                    "WHERE p.tenant_id = $1 AND NOT p.deleted AND (p.feeds IS NULL OR p.feeds = $2) "
                    "AND NOT EXISTS (SELECT 1 FROM catalog_listed_v1 l WHERE l.sku = p.sku) RETURNING p.sku), "
                    "listed AS (INSERT INTO catalog_change_skus(tenant_id, seq, sku) SELECT $1, $4, sku FROM gone WHERE $5) "
                    "SELECT count(*) FROM gone",
                    {tenantId_, feed_, now_, sequence_, listing_ ? "true" : "false"});
                if (!marked) return marked.error();
                counts_.markedDeleted = marked->integer(0, 0);
                if (auto status = noteListed(counts_.markedDeleted); !status) return status.error();
                // Still owned by another feed: nothing a reader sees changes, so no change stamp.
                auto disowned = connection_->execute(
                    "catalog import: give up products the feed no longer lists",
                    "UPDATE catalog_products p SET feeds = array_to_string(array_remove(string_to_array(p.feeds, ','), $2::text), ',') "
                    "WHERE p.tenant_id = $1 AND NOT p.deleted AND p.feeds <> $2 AND $2 = ANY(string_to_array(p.feeds, ',')) "
                    "AND NOT EXISTS (SELECT 1 FROM catalog_listed_v1 l WHERE l.sku = p.sku)",
                    {tenantId_, feed_});
                if (!disowned) return disowned.error();
            }
        }
        if (!listing_) {
            auto unlisted = connection_->execute("catalog import: record the change as unlisted",
                                                 "UPDATE catalog_changes SET listed = false WHERE tenant_id = $1 AND seq = $2", {tenantId_, sequence_});
            if (!unlisted) return unlisted.error();
        }
        auto pruned = connection_->execute(
            "catalog import: drop old change lists",
            "WITH old AS (UPDATE catalog_changes SET listed = false WHERE tenant_id = $1 AND listed AND started_at < $2 RETURNING seq) "
            "DELETE FROM catalog_change_skus WHERE tenant_id = $1 AND seq IN (SELECT seq FROM old)",
            {tenantId_, now_ - kChangeListSeconds});
        if (!pruned) return pruned.error();
        if (emptyAtStart_ && counts_.inserted >= kAnalyzeAfterLoad) {
            // Statistics for the tenant's partition now, not when autovacuum comes by: without them
            // the planner takes a freshly loaded tenant for a few rows and joins the next delta's
            // stage with a scan of every product instead of a lookup per staged row.
            auto partition = connection_->execute("catalog import: find the tenant's partition",
                                                  "SELECT tableoid::regclass::text FROM catalog_products WHERE tenant_id = $1 LIMIT 1", {tenantId_});
            if (!partition) return partition.error();
            if (partition->rows() == 1) {
                // Only the columns svc's statements filter, join or sort on: the wide text columns
                // (ICU-collated) and the properties cost most of a full ANALYZE and steer no plan;
                // autovacuum fills them in later. The row count is updated all the same.
                std::string analyze = "ANALYZE " + partition->text(0, 0) +  // a name the server printed, quoted as needed
                                      " (tenant_id, sku, main_sku, deleted, change_seq, last_seen_at, stock, feeds)";
                if (auto status = connection_->executeScript("catalog import: analyze the tenant's partition", analyze.c_str()); !status) return status.error();
            }
        }
        auto committed = connection_->execute("commit catalog import", "COMMIT");
        if (!committed) return committed.error();
        open_ = false;
        committed_ = true;
        return counts_;
    }

    // The change list is in the database, where every node reads it (PgCatalogStore::readChanges):
    // this process needs no copy of it.
    CatalogChange takeChange() override {
        CatalogChange change;
        if (committed_) change.sequence = sequence_;
        return change;
    }

private:
    Error fail(Error error) {
        failure_ = error;
        return error;
    }

    Status setShape(const FeedShape& shape) {
        if (auto status = settle(); !status) return status;
        fields_ = shape.fields;
        propertyColumns_ = shape.propertyColumns;
        describes_ = shape.describesProducts();
        shaped_ = true;
        orderedFields_.clear();
        columns_.clear();
        for (FeedField field : fields_) {
            if (field == FeedField::Sku || field == FeedField::MainSku) continue;
            orderedFields_.push_back(field);
            for (const char* column : CatalogColumns::of(field)) columns_.emplace_back(column);
        }
        writesMainSku_ = fields_.count(FeedField::MainSku) > 0;
        writesPrices_ = fields_.count(FeedField::RetailPrice) > 0 || fields_.count(FeedField::DiscountPrice) > 0;
        // Into a catalog that was empty, every row is new: straight into the table.
        direct_ = emptyAtStart_ && describes_;
        liveSkus_.clear();
        if (!describes_) {
            // Which SKUs a stock-and-price feed may write, read once (not a query per row).
            auto read = forEachRow(*connection_, "catalog import: read live SKUs",
                                   "SELECT sku FROM catalog_products WHERE tenant_id = $1 AND NOT deleted", {tenantId_},
                                   [&](const PgResult& rows, int row) { liveSkus_.insert(rows.text(row, 0)); });
            if (!read) return read;
        }
        return Status::success();
    }

    std::string copyColumns() const {
        std::string list = direct_ ? "catalog_products(sku, main_sku" : "catalog_stage_v1(sku, main_sku";
        for (const auto& column : columns_) list += ", " + column;
        if (!propertyColumns_.empty()) list += ", properties";
        if (direct_) list += ", tenant_id, updated_at, last_seen_at, change_seq, feeds";
        return list + ")";
    }

    Status startCopy() {
        std::string sql = "COPY " + copyColumns() + " FROM STDIN";
        if (auto status = connection_->beginCopy("catalog import: copy rows", sql.c_str()); !status) return status;
        copying_ = true;
        return Status::success();
    }

    Status endCopy() {
        if (!copying_) return Status::success();
        copying_ = false;
        if (auto status = connection_->putCopyData("catalog import: copy rows", buffer_.rows()); !status) return status;
        buffer_.clear();
        return connection_->endCopy("catalog import: copy rows");
    }

    // Applies what is staged; the first failure sticks (the transaction is lost with it).
    Status settle() {
        if (failure_) return *failure_;
        if (auto status = apply(); !status) return fail(status.error());
        return Status::success();
    }

    Status apply() {
        if (auto status = endCopy(); !status) return status;
        if (staged_ == 0) return Status::success();
        int64_t staged = staged_;
        staged_ = 0;
        if (direct_) {
            counts_.inserted += staged;
            return Status::success();
        }
        auto classified = classify();
        if (!classified) return classified.error();
        int64_t inserted = staged - classified->matched;  // staged rows no stored product matched: new
        int64_t listed = classified->stamped + inserted;
        counts_.inserted += inserted;
        counts_.updated += classified->changed;
        counts_.unchanged += classified->unchanged;
        revived_ += classified->revived;
        liveSeen_ += classified->liveSeen;
        if (writesPrices_ && classified->changed > 0) {
            if (auto status = recordPriceHistory(); !status) return status;
        }
        if (auto status = write(*classified, inserted); !status) return status;
        if (listing_ && listed > 0 && listedCount_ + listed <= kMaxListedChanges) {
            auto listed = connection_->execute("catalog import: list changed SKUs",
                                               "INSERT INTO catalog_change_skus(tenant_id, seq, sku) SELECT $1, $2, sku FROM catalog_stage_v1 WHERE kind <= 2",
                                               {tenantId_, sequence_});
            if (!listed) return listed.error();
        }
        if (auto status = noteListed(listed); !status) return status;
        auto emptied = connection_->execute("catalog import: empty the stage", "TRUNCATE catalog_stage_v1");
        if (!emptied) return emptied.error();
        return Status::success();
    }

    // `added` more SKUs changed: past the bound, the import's list is dropped (readers scan).
    Status noteListed(int64_t added) {
        if (!listing_) return Status::success();
        listedCount_ += added;
        if (listedCount_ <= kMaxListedChanges) return Status::success();
        listing_ = false;
        auto dropped = connection_->execute("catalog import: drop the change list", "DELETE FROM catalog_change_skus WHERE tenant_id = $1 AND seq = $2",
                                            {tenantId_, sequence_});
        if (!dropped) return dropped.error();
        return Status::success();
    }

    // The stored properties this feed has no column for stay; its own columns are laid over them.
    std::string mergedProperties() const {
        return propertyColumns_.empty() ? std::string("p.properties") : std::string("(p.properties - $3::text[]) || s.properties");
    }

    // What classify() found among the staged rows that match a stored product.
    struct Classified {
        int64_t matched = 0, changed = 0, unchanged = 0, revived = 0, liveSeen = 0, stamped = 0, reowned = 0;
    };

    // Compares each staged row with the stored one (exact counts; unchanged rows left alone) and
    // computes its owners: the feeds that describe it (docs/adr/0070). Counted in the same
    // statement, from the rows it classified (no second pass over the stage).
    Result<Classified> classify() {
        std::string differs = "p.deleted";
        if (writesMainSku_) differs += " OR p.main_sku IS DISTINCT FROM s.main_sku";
        for (const auto& column : columns_) differs += " OR p." + column + " IS DISTINCT FROM s." + column;
        // Stored properties equal to the feed's are equal to their merge (the usual row: every
        // property came from this feed): one comparison instead of building the merge, twice.
        if (!propertyColumns_.empty()) differs += " OR (p.properties <> s.properties AND " + mergedProperties() + " IS DISTINCT FROM p.properties)";
        std::string owners = describes_ ? "CASE WHEN p.deleted OR p.feeds IS NULL THEN $4::text WHEN $4 = ANY(string_to_array(p.feeds, ',')) THEN p.feeds "
                                          "ELSE (SELECT string_agg(f, ',' ORDER BY f COLLATE \"C\") FROM unnest(string_to_array(p.feeds, ',') || $4::text) f) END"
                                        : "p.feeds";
        std::string sql = "WITH classified AS (UPDATE catalog_stage_v1 s SET kind = CASE WHEN " + differs + " THEN 1 WHEN $2 - p.last_seen_at >= " +
                          std::to_string(kSeenResolutionSeconds) +
                          " THEN 2 ELSE 3 END, was_deleted = p.deleted, old_retail = p.retail_price, old_discount = p.discount_price, "
                          "old_updated_at = p.updated_at, owners = " + owners +
                          (propertyColumns_.empty() ? "" : ", properties = CASE WHEN p.properties = s.properties THEN p.properties ELSE " + mergedProperties() + " END") +
                          " FROM catalog_products p WHERE p.tenant_id = $1 AND p.sku = s.sku"
                          // Every parameter is referenced: PostgreSQL refuses one it cannot type.
                          " AND $3::text[] IS NOT NULL AND $4::text IS NOT NULL RETURNING s.kind, s.was_deleted, s.owners IS DISTINCT FROM p.feeds AS reowned) "
                          "SELECT count(*), count(*) FILTER (WHERE kind = 1), count(*) FILTER (WHERE kind >= 2), "
                          "count(*) FILTER (WHERE kind = 1 AND was_deleted), count(*) FILTER (WHERE NOT was_deleted), "
                          "count(*) FILTER (WHERE kind <= 2), count(*) FILTER (WHERE reowned) FROM classified";
        auto classified = connection_->execute("catalog import: compare with the stored products", sql.c_str(),
                                               {tenantId_, now_, PgParam::textArray(propertyColumns_), feed_});
        if (!classified) return classified.error();
        return Classified{classified->integer(0, 0), classified->integer(0, 1), classified->integer(0, 2),
                          classified->integer(0, 3), classified->integer(0, 4), classified->integer(0, 5), classified->integer(0, 6)};
    }

    // The selling-price history (docs/adr/0030), kept as SQLite's trigger keeps it: on a change
    // of the selling price the price before the first change (when there is no history yet) and
    // the new one, then only what can still matter: from the price valid 30 days before on.
    Status recordPriceHistory() {
        std::string retail = fields_.count(FeedField::RetailPrice) ? "s.retail_price" : "s.old_retail";
        std::string discount = fields_.count(FeedField::DiscountPrice) ? "s.discount_price" : "s.old_discount";
        std::string selling = "COALESCE(" + discount + ", " + retail + ")";
        // One pass over the stage for the rows whose selling price changed, then the insert and
        // the prune from them, in one statement. The prune sees the history before this
        // statement's rows, which changes nothing: the rows it adds are dated now (after any
        // cutoff) or are a product's first, when there is nothing older to prune.
        std::string sql =
            "WITH changed AS MATERIALIZED (SELECT s.sku, " + selling + " AS price, COALESCE(s.old_discount, s.old_retail) AS old_price, "
            "s.old_updated_at FROM catalog_stage_v1 s WHERE s.kind = 1 AND " + selling + " IS NOT NULL AND " + selling +
            " IS DISTINCT FROM COALESCE(s.old_discount, s.old_retail)), "
            "pruned AS (DELETE FROM price_history h USING (SELECT c.sku, (SELECT max(x.since) FROM price_history x WHERE x.tenant_id = $1 "
            "AND x.sku = c.sku AND x.since <= $2 - " + std::to_string(PriceHistoryStore::kWindowSeconds) + ") AS cutoff FROM changed c) c "
            "WHERE h.tenant_id = $1 AND h.sku = c.sku AND h.since < c.cutoff) "
            "INSERT INTO price_history(tenant_id, sku, since, price) "
            "SELECT $1, c.sku, LEAST(c.old_updated_at, $2 - 1), c.old_price FROM changed c WHERE c.old_price IS NOT NULL "
            "AND NOT EXISTS (SELECT 1 FROM price_history h WHERE h.tenant_id = $1 AND h.sku = c.sku) "
            "UNION ALL SELECT $1, c.sku, $2, c.price FROM changed c "
            "ON CONFLICT (tenant_id, sku, since) DO UPDATE SET price = EXCLUDED.price";
        auto recorded = connection_->execute("catalog import: record price history", sql.c_str(), {tenantId_, now_});
        if (!recorded) return recorded.error();
        return Status::success();
    }

    // Changed rows are rewritten whole (kinds 2 and 3 equal the stored values in every column the
    // feed writes, so setting them changes nothing); unchanged rows only when seen again after an
    // hour (availability may change: the 24-hour rule) or their owners changed. A statement with
    // nothing to do by classify()'s counts is not sent (each is a pass over the stage).
    Status write(const Classified& classified, int64_t inserted) {
        std::string set = "deleted = false, updated_at = CASE WHEN s.kind = 1 THEN $2 ELSE p.updated_at END, "
                          "last_seen_at = CASE WHEN s.kind <= 2 THEN $2 ELSE p.last_seen_at END, "
                          "change_seq = CASE WHEN s.kind <= 2 THEN $3 ELSE p.change_seq END, feeds = s.owners";
        if (writesMainSku_) set += ", main_sku = s.main_sku";
        for (const auto& column : columns_) set += ", " + column + " = s." + column;
        if (!propertyColumns_.empty()) set += ", properties = s.properties";
        std::string update = "UPDATE catalog_products p SET " + set +
                             " FROM catalog_stage_v1 s WHERE p.tenant_id = $1 AND p.sku = s.sku "
                             "AND (s.kind <= 2 OR p.feeds IS DISTINCT FROM s.owners) AND s.kind > 0";
        if (classified.stamped > 0 || classified.reowned > 0) {
            auto updated = connection_->execute("catalog import: update products", update.c_str(), {tenantId_, now_, sequence_});
            if (!updated) return updated.error();
        }
        if (inserted == 0) return Status::success();
        std::string columns = "tenant_id, sku, main_sku, updated_at, last_seen_at, change_seq, feeds";
        std::string values = "$1, sku, main_sku, $2, $2, $3, $4::text";
        for (const auto& column : columns_) {
            columns += ", " + column;
            values += ", " + column;
        }
        if (!propertyColumns_.empty()) {
            columns += ", properties";
            values += ", properties";
        }
        std::string insert = "INSERT INTO catalog_products(" + columns + ") SELECT " + values + " FROM catalog_stage_v1 WHERE kind = 0";
        auto added = connection_->execute("catalog import: insert products", insert.c_str(), {tenantId_, now_, sequence_, feed_});
        if (!added) return added.error();
        return Status::success();
    }

    // For a full feed: its SKUs, copied once, for the set-based statements that find the live
    // products it owned and no longer lists. Live products this import wrote are all listed:
    // when it wrote every live product, there is nothing to look for.
    Status findDropped(const SkuSet& listed) {
        if (auto status = settle(); !status) return status;
        if (droppedFound_) return Status::success();
        droppedFound_ = true;
        droppedPossible_ = describes_ && liveBefore() - liveSeen_ > 0;
        if (failure_) return *failure_;
        if (!droppedPossible_) return Status::success();
        if (auto status = connection_->beginCopy("catalog import: copy the feed's SKUs", "COPY catalog_listed_v1(sku) FROM STDIN"); !status) return status;
        PgCopyBuffer skus;
        for (const auto& sku : listed) {
            skus.text(sku).endRow();
            if (skus.size() >= kCopyChunkBytes) {
                if (auto status = connection_->putCopyData("catalog import: copy the feed's SKUs", skus.rows()); !status) return status;
                skus.clear();
            }
        }
        if (auto status = connection_->putCopyData("catalog import: copy the feed's SKUs", skus.rows()); !status) return status;
        if (auto status = connection_->endCopy("catalog import: copy the feed's SKUs"); !status) return status;
        auto analyzed = connection_->execute("catalog import: copy the feed's SKUs", "ANALYZE catalog_listed_v1");
        if (!analyzed) return analyzed.error();
        return Status::success();
    }

    PgDatabase& database_;
    std::unique_ptr<PgConnection> connection_;
    int64_t tenantId_;
    int64_t now_;
    std::string feed_;
    int64_t sequence_ = 0;
    bool open_ = false;
    bool committed_ = false;
    bool copying_ = false;
    bool emptyAtStart_ = false;
    bool direct_ = false;
    bool listing_ = false;
    int64_t listedCount_ = 0;
    std::optional<Error> failure_;
    ImportCounts counts_;
    mutable std::optional<int64_t> liveAtStart_;
    int64_t revived_ = 0;
    int64_t liveSeen_ = 0;
    int64_t staged_ = 0;
    bool droppedFound_ = false;
    bool droppedPossible_ = false;
    bool shaped_ = false;
    const FeedShape* shapeSeen_ = nullptr;
    std::set<FeedField> fields_;
    std::vector<std::string> propertyColumns_;
    std::vector<FeedField> orderedFields_;
    std::vector<std::string> columns_;  // the columns the feed writes besides sku and main_sku
    bool describes_ = false;
    bool writesMainSku_ = false;
    bool writesPrices_ = false;
    std::unordered_set<std::string> liveSkus_;  // for a feed that describes no products
    PgCopyBuffer buffer_;
};

}  // namespace

Result<std::unique_ptr<CatalogImport>> PgCatalogStore::beginImport(int64_t tenantId, int64_t now, const std::string& feed) {
    auto connection = database_.borrow();
    if (!connection) return connection.error();
    auto import = std::make_unique<PgCatalogImport>(database_, std::move(*connection), tenantId, now, feed);
    if (auto status = import->begin(); !status) return status.error();
    return std::unique_ptr<CatalogImport>(std::move(import));
}

Result<std::vector<Product>> PgCatalogStore::articleVariants(int64_t tenantId, const std::string& skuOrMainSku) {
    return database_.withConnection([&](PgConnection& connection) -> Result<std::vector<Product>> {
        auto found = connection.execute("read article variants",
                                        "SELECT " SVC_PRODUCT_COLUMNS " FROM catalog_products WHERE tenant_id = $1 AND main_sku = "
                                        "COALESCE((SELECT main_sku FROM catalog_products WHERE tenant_id = $1 AND sku = $2), $2) ORDER BY sku",
                                        {tenantId, skuOrMainSku});
        if (!found) return found.error();
        std::vector<Product> products;
        int64_t now = clock_.nowSeconds();
        for (int row = 0; row < found->rows(); ++row) products.push_back(readProduct(*found, row, now));
        return products;
    });
}

Status PgCatalogStore::forEachLiveProduct(int64_t tenantId, const std::function<void(Product&&)>& visit) {
    auto read = readChanges(tenantId, -1, true, visit);
    if (!read) return read.error();
    return Status::success();
}

Result<int64_t> PgCatalogStore::forEachProductChangedSince(int64_t tenantId, int64_t sinceSequence, const std::function<void(Product&&)>& visit) {
    auto read = readChanges(tenantId, sinceSequence, false, visit);
    if (!read) return read.error();
    return read->sequence;
}

Result<CatalogStore::ChangedRead> PgCatalogStore::forEachChangedProduct(int64_t tenantId, int64_t sinceSequence, const KnownChanges& /*known*/,
                                                                        const std::function<void(Product&&)>& visit) {
    return readChanges(tenantId, sinceSequence, false, visit);
}

Result<CatalogStore::ChangedRead> PgCatalogStore::readChanges(int64_t tenantId, int64_t sinceSequence, bool liveOnly,
                                                              const std::function<void(Product&&)>& visit) {
    return database_.withConnection([&](PgConnection& connection) -> Result<ChangedRead> {
        ChangedRead read;
        Status status = connection.inTransaction("read catalog", [&]() -> Status {
            // One snapshot for the sequence and the rows: an import committing meanwhile is seen
            // whole or not at all, and never without its sequence.
            auto snapshot = connection.execute("read catalog", "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
            if (!snapshot) return snapshot.error();
            auto latest = connection.execute(
                "read catalog: change sequence",
                "SELECT coalesce(max(seq), 0), coalesce(bool_and(listed) FILTER (WHERE seq > $2), true)::int, "
                "(SELECT count(*) FROM catalog_change_skus WHERE tenant_id = $1 AND seq > $2) FROM catalog_changes WHERE tenant_id = $1",
                {tenantId, sinceSequence});
            if (!latest) return latest.error();
            read.sequence = latest->integer(0, 0);
            read.byKey = sinceSequence >= 0 && latest->integer(0, 1) != 0 && latest->integer(0, 2) <= kMaxListedChanges;
            std::string sql = "SELECT " SVC_PRODUCT_COLUMNS " FROM catalog_products WHERE tenant_id = $1";
            if (liveOnly) sql += " AND NOT deleted";
            if (read.byKey) {
                // By key: the listed SKUs' articles through the primary key and the main-SKU index.
                sql += " AND main_sku IN (SELECT p.main_sku FROM catalog_change_skus c JOIN catalog_products p "
                       "ON p.tenant_id = c.tenant_id AND p.sku = c.sku WHERE c.tenant_id = $1 AND c.seq > $2)";
            } else if (sinceSequence >= 0) {
                sql += " AND main_sku IN (SELECT main_sku FROM catalog_products WHERE tenant_id = $1 AND change_seq > $2)";
            } else {
                sql += " AND $2 < 0";
            }
            // Variants by SKU within their article, in byte order (COLLATE "C").
            sql += " ORDER BY main_sku, sku";
            int64_t now = clock_.nowSeconds();
            return forEachRow(connection, "read catalog products", sql, {tenantId, sinceSequence},
                              [&](const PgResult& rows, int row) { visit(readProduct(rows, row, now)); });
        });
        if (!status) return status.error();
        return read;
    });
}

Result<CatalogStats> PgCatalogStore::stats(int64_t tenantId) {
    return database_.withConnection([&](PgConnection& connection) -> Result<CatalogStats> {
        auto counted = connection.execute("read catalog stats",
                                          "SELECT count(*), count(*) FILTER (WHERE stock > 0 AND last_seen_at >= $2) FROM catalog_products "
                                          "WHERE tenant_id = $1 AND NOT deleted",
                                          {tenantId, clock_.nowSeconds() - kAbsentAfterSeconds});
        if (!counted) return counted.error();
        return CatalogStats{counted->integer(0, 0), counted->integer(0, 1)};
    });
}

}  // namespace svc
