#include "store/SqliteCatalogStore.hpp"

#include <algorithm>
#include <filesystem>
#include <set>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "store/CatalogColumns.hpp"
#include "catalog/Availability.hpp"
#include "store/Migrations.hpp"
#include "store/PrivateFiles.hpp"
#include "text/BoundedJson.hpp"
#include "text/JsonWriter.hpp"
#include "text/StringUtil.hpp"
#include "text/Utf8.hpp"

namespace svc {
namespace {

// Beyond this many SKUs changed since the last read, the scan of the stamps is the cheaper read.
constexpr size_t kMaxKeyedReads = 1 << 16;

constexpr const char* kProductColumns =
    "sku, main_sku, model, variant, name, deeplink, image, thumbnail, brand, color, description, category_paths, "
    "stock, retail_price, discount_price, lowest_price_30d, property_set, property_values, deleted, last_seen_at, primary_category";

// The arrays this store writes (jsonStringArray: no whitespace; escapes only for quotes,
// backslashes and control characters) are read without building a JSON document: every
// build reads one or two per product. False when the text is not in that form.
bool parseWrittenStringArray(std::string_view text, std::vector<std::string>& items) {
    if (text.size() < 2 || text.front() != '[' || text.back() != ']' || findInvalidUtf8(text) != std::string_view::npos) return false;
    size_t i = 1;
    if (text.size() == 2) return true;
    auto hexDigit = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    while (true) {
        if (text[i] != '"') return false;
        ++i;
        std::string item;
        while (true) {
            size_t run = i;
            while (i < text.size() && text[i] != '"' && text[i] != '\\' && static_cast<unsigned char>(text[i]) >= 0x20) ++i;
            item.append(text.substr(run, i - run));
            if (i >= text.size() || static_cast<unsigned char>(text[i]) < 0x20) return false;
            if (text[i] == '"') break;
            if (i + 1 >= text.size()) return false;
            char escaped = text[i + 1];
            i += 2;
            switch (escaped) {
                case '"': item += '"'; break;
                case '\\': item += '\\'; break;
                case '/': item += '/'; break;
                case 'n': item += '\n'; break;
                case 'r': item += '\r'; break;
                case 't': item += '\t'; break;
                case 'b': item += '\b'; break;
                case 'f': item += '\f'; break;
                case 'u': {
                    // Only what the writer emits (control characters); anything else the slow way.
                    if (i + 4 > text.size()) return false;
                    int value = 0;
                    for (size_t d = 0; d < 4; ++d) {
                        int digit = hexDigit(text[i + d]);
                        if (digit < 0) return false;
                        value = value * 16 + digit;
                    }
                    if (value >= 0x80) return false;
                    item += static_cast<char>(value);
                    i += 4;
                    break;
                }
                default: return false;
            }
        }
        ++i;  // the closing quote
        items.push_back(std::move(item));
        if (i >= text.size()) return false;
        if (text[i] == ']') return i + 1 == text.size();
        if (text[i] != ',') return false;
        ++i;
        if (i >= text.size()) return false;
    }
}

std::string joinOwners(const std::vector<std::string>& names) {
    std::string joined;
    for (const auto& name : names) {
        if (!joined.empty()) joined += ',';
        joined += name;
    }
    return joined;
}

std::vector<std::string> parseStringArray(const std::string& text) {
    std::vector<std::string> items;
    if (parseWrittenStringArray(text, items)) return items;
    items.clear();
    auto json = BoundedJson::parse(text, "string array");
    if (json && json->is_array()) {
        for (const auto& item : *json) {
            if (item.is_string()) items.push_back(item.get<std::string>());
        }
    }
    return items;
}

// Category paths: one path lives only in primary_category (category_paths stays empty);
// several are kept as a JSON array.
std::string encodeCategoryPaths(const Product& product) {
    return product.categoryPaths.size() <= 1 ? std::string() : jsonStringArray(product.categoryPaths);
}

}  // namespace

const std::vector<std::string>& PropertySetNames::names(int64_t setId) {
    static const std::vector<std::string> none;
    if (setId == 0) return none;
    auto found = cache_.find(setId);
    if (found != cache_.end()) return found->second;
    std::vector<std::string> names;
    auto query = db_.prepare("SELECT names FROM property_sets WHERE id = ?");
    if (query) {
        query->bind(1, setId);
        if (auto row = query->step(); row && *row) names = parseStringArray(query->text(0));
    }
    return cache_.emplace(setId, std::move(names)).first->second;
}

namespace {

Product readProduct(const SqliteStatement& row, int64_t now, PropertySetNames& propertyNames) {
    Product product;
    product.sku = row.text(0);
    product.mainSku = row.text(1);
    product.model = row.text(2);
    product.variant = row.text(3);
    product.name = row.text(4);
    product.deeplink = row.text(5);
    product.image = row.text(6);
    product.thumbnail = row.text(7);
    product.brand = row.text(8);
    product.color = row.text(9);
    product.description = row.text(10);
    std::string paths = row.text(11);
    if (!paths.empty()) product.categoryPaths = parseStringArray(paths);
    else if (std::string primary = row.text(20); !primary.empty()) product.categoryPaths.push_back(std::move(primary));
    product.stock = row.integer(12);
    product.retailPrice = row.optionalInteger(13);
    product.discountPrice = row.optionalInteger(14);
    product.lowestPrice30d = row.optionalInteger(15);
    const auto& names = propertyNames.names(row.integer(16));
    if (!names.empty()) {
        auto values = parseStringArray(row.text(17));
        for (size_t i = 0; i < names.size() && i < values.size(); ++i) product.properties[names[i]] = std::move(values[i]);
    }
    product.deleted = row.integer(18) != 0;
    product.lastSeenAt = row.integer(19);
    product.stale = isStale(product.lastSeenAt, now);
    return product;
}

Result<std::vector<Product>> readProducts(SqliteStatement& query, int64_t now, PropertySetNames& propertyNames) {
    std::vector<Product> products;
    while (true) {
        auto row = query.step();
        if (!row) return row.error();
        if (!*row) return products;
        products.push_back(readProduct(query, now, propertyNames));
    }
}

// Binds the field's values for `product` from `index` on; returns the next free index.
// Unowned: `product` and `scratch` outlive the statement's step, and every row rebinds.
int bindField(SqliteStatement& statement, int index, FeedField field, const Product& product, std::string& scratch) {
    switch (field) {
        case FeedField::Sku: return index;
        case FeedField::MainSku: statement.bindUnowned(index, product.mainSku); break;
        case FeedField::Model: statement.bindUnowned(index, product.model); break;
        case FeedField::Stock: statement.bind(index, product.stock); break;
        case FeedField::Variant: statement.bindUnowned(index, product.variant); break;
        case FeedField::Name: statement.bindUnowned(index, product.name); break;
        case FeedField::RetailPrice: statement.bind(index, product.retailPrice); break;
        case FeedField::DiscountPrice: statement.bind(index, product.discountPrice); break;
        case FeedField::Deeplink: statement.bindUnowned(index, product.deeplink); break;
        case FeedField::Image: statement.bindUnowned(index, product.image); break;
        case FeedField::Thumbnail: statement.bindUnowned(index, product.thumbnail); break;
        case FeedField::CategoryPaths:
            scratch = encodeCategoryPaths(product);
            statement.bindUnowned(index, scratch);  // scratch holds only this value until the next row
            statement.bindUnowned(index + 1, product.primaryCategory());
            return index + 2;
        case FeedField::Brand: statement.bindUnowned(index, product.brand); break;
        case FeedField::Color: statement.bindUnowned(index, product.color); break;
        case FeedField::Description: statement.bindUnowned(index, product.description); break;
        case FeedField::LowestPrice30d: statement.bind(index, product.lowestPrice30d); break;
    }
    return index + 1;
}

// The indexes of the catalog schema (see Migrations.cpp). Rows are appended to a rowid
// table (wide rows move less than in a WITHOUT ROWID tree); an initial load builds the
// indexes after the rows: one sort each instead of a random B-tree insert per row.
// The SKU index is unique: the import itself refuses duplicate SKUs before that.
constexpr const char* kSecondaryIndexNames[] = {"products_by_sku", "products_by_main_sku", "products_live_by_category"};
constexpr const char* kSecondaryIndexDefinitions[] = {
    "CREATE UNIQUE INDEX products_by_sku ON products(sku)",
    "CREATE INDEX products_by_main_sku ON products(main_sku)",
    "CREATE INDEX products_live_by_category ON products(primary_category) WHERE deleted = 0",
};

class SqliteCatalogImport : public CatalogImport {
public:
    SqliteCatalogImport(std::unique_ptr<SqliteDatabase> db, SqliteTransaction transaction, int64_t now, bool rollbackJournal,
                        std::string feed)
        : db_(std::move(db)), transaction_(std::move(transaction)), now_(now), rollbackJournal_(rollbackJournal),
          feed_(std::move(feed)), propertyNames_(*db_) {}

    Status prepare() {
        bool empty = false;
        {
            // Scoped: DROP INDEX fails while a statement of this connection is still active.
            auto any = db_->prepare("SELECT NOT EXISTS (SELECT 1 FROM products)");
            if (!any) return any.error();
            auto row = any->step();
            if (!row) return row.error();
            empty = any->integer(0) != 0;
        }
        {
            auto change = db_->prepare("INSERT INTO catalog_changes(started_at) VALUES (?)");
            if (!change) return change.error();
            change->bind(1, now_);
            if (auto status = change->run(); !status) return status;
            changeSeq_ = std::to_string(db_->lastInsertRowId());  // an integer of ours, written into the SQL below
            change_.sequence = db_->lastInsertRowId();
        }
        // An initial load changes everything: nothing to gain from listing it.
        change_.complete = !empty;
        if (empty) {
            liveAtStart_ = 0;
            for (const char* index : kSecondaryIndexNames) {
                if (auto status = db_->execute(std::string("DROP INDEX IF EXISTS ") + index); !status) return status;
            }
            emptyAtStart_ = true;
        }
        return Status::success();
    }

    // Counted on first use: only full feeds need it, and a delta feed should not pay a
    // scan of the catalog. Rows this import made live (inserted, or revived from deleted)
    // are taken off again, so the figure is the one before the import.
    int64_t liveBefore() const override {
        if (!liveAtStart_) {
            auto count = db_->prepare("SELECT COUNT(*) FROM products WHERE deleted = 0");
            int64_t liveNow = count && count->step() ? count->integer(0) : 0;
            liveAtStart_ = liveNow - counts_.inserted - revived_;
        }
        return *liveAtStart_;
    }

    Result<UpsertOutcome> upsert(const Product& product, const FeedShape& shape) override {
        // Every row of a feed passes the mapper's one shape: compare its address first.
        if (!select_ || (&shape != shapeSeen_ && (shape.fields != fields_ || shape.propertyColumns != propertyColumns_))) {
            if (auto status = prepareStatements(shape); !status) return status.error();
        }
        shapeSeen_ = &shape;
        if (replaceProperties_) {
            if (auto status = encodeProperties(product.properties); !status) return status.error();
        }

        // Compare with the stored row, so the import reports exact counts and leaves
        // unchanged rows alone (only "last seen" is refreshed, hourly). Into a catalog that
        // was empty, every new SKU is an insert: no lookup.
        int index = 0;
        Result<bool> found = false;
        if (!emptyAtStart_) {
            select_->reset();
            index = bindValues(*select_, 1, product);
            select_->bindUnowned(index, product.sku);
            found = select_->step();
            if (!found) return found.error();
        }
        bool deleted = *found && select_->integer(0) != 0;
        if (!describes_ && (!*found || deleted)) {
            // A stock-and-price feed creates nothing and brings back nothing: only a feed that
            // describes products does (docs/adr/0070). The row is reported, not written.
            ++counts_.unknown;
            return UpsertOutcome::UnknownSku;
        }
        if (!*found) {
            insert_->reset();
            insert_->bindUnowned(1, product.sku).bind(2, now_).bind(3, now_).bindUnowned(4, feed_);
            int next = 5;
            if (insertMainSkuSeparately_) insert_->bindUnowned(next++, product.mainSku);
            bindValues(*insert_, next, product);
            if (auto status = insert_->run(); !status) return status.error();
            ++counts_.inserted;
            noteChanged(product.sku);
            return UpsertOutcome::Written;
        }
        int64_t lastSeenAt = select_->integer(1);
        if (!deleted) ++liveSeen_;
        else ++revived_;  // updated below: a deleted product listed again is live again
        uint64_t differs = 0;  // bit i: columns_[i] differs from the stored value
        for (int i = 0; i < columnCount_; ++i) {
            if (select_->integer(i + 2) == 0) differs |= uint64_t{1} << i;
        }
        if (replaceProperties_) {
            if (auto merged = mergeStoredProperties(product, differs); !merged) return merged.error();
        }
        if (describes_) {
            if (auto owned = claim(product.sku, deleted); !owned) return owned.error();
        }
        if (!deleted && differs == 0) {
            ++counts_.unchanged;
            if (now_ - lastSeenAt < kSeenResolutionSeconds) return UpsertOutcome::Written;
            touch_->reset();
            touch_->bind(1, now_).bindUnowned(2, product.sku);
            if (auto status = touch_->run(); !status) return status.error();
            noteChanged(product.sku);
            return UpsertOutcome::Written;
        }
        // Only the columns that changed are set: SQLite rewrites an index entry whenever its
        // column is SET, even to the same value, so a stock-and-price change would otherwise
        // also dirty a page of each index (twice the pages a delta writes, ADR 0012).
        // `deleted` is only SET to revive a row: it is in the category index's condition.
        uint64_t changed = deleted ? kReviveBit | ((uint64_t{1} << columnCount_) - 1) : differs;
        auto update = updateFor(changed);
        if (!update) return update.error();
        (*update)->reset();
        (*update)->bind(1, now_).bind(2, now_);
        index = bindValues(**update, 3, product);
        (*update)->bindUnowned(index, product.sku);
        if (auto status = (*update)->run(); !status) return status.error();
        ++counts_.updated;
        noteChanged(product.sku);
        return UpsertOutcome::Written;
    }

    ImportCounts pendingCounts() const override { return counts_; }

    CatalogChange takeChange() override { return std::move(change_); }

    Result<int64_t> countMissing(const SkuSet& listedInFeed) override {
        if (auto status = findDropped(listedInFeed); !status) return status.error();
        return static_cast<int64_t>(orphaned_.size());
    }

    Result<ImportCounts> commit(const SkuSet* listedInFeed) override {
        if (listedInFeed) {
            if (auto status = findDropped(*listedInFeed); !status) return status.error();
            auto mark = db_->prepare("UPDATE products SET deleted = 1, updated_at = ?, change_seq = " + changeSeq_ + " WHERE sku = ?");
            if (!mark) return mark.error();
            for (const auto& sku : orphaned_) {
                mark->reset();
                mark->bind(1, now_).bind(2, sku);
                if (auto status = mark->run(); !status) return status.error();
                noteChanged(sku);
            }
            // Still owned by another feed: nothing a reader sees changes, so no change stamp.
            auto disown = db_->prepare("UPDATE products SET feeds = ? WHERE sku = ?");
            if (!disown) return disown.error();
            for (const auto& [sku, owners] : disowned_) {
                disown->reset();
                disown->bind(1, owners).bind(2, sku);
                if (auto status = disown->run(); !status) return status.error();
            }
            counts_.markedDeleted = static_cast<int64_t>(orphaned_.size());
        }
        if (emptyAtStart_) {
            for (const char* definition : kSecondaryIndexDefinitions) {
                if (auto status = db_->execute(definition); !status) return status.error();
            }
        }
        if (auto status = transaction_.commit(); !status) return status.error();
        // Back to WAL for readers. Best effort: every connection sets WAL when it opens.
        if (rollbackJournal_) (void)db_->execute("PRAGMA journal_mode=WAL");
        return counts_;
    }

private:
    // The owners of a product are the feeds that describe it, as a sorted comma-separated list
    // (feed names hold no commas); NULL for a product stored before owners were kept, which
    // any full feed leaving it out deletes, as before (docs/adr/0070).
    static bool ownersInclude(std::string_view owners, std::string_view feed) {
        size_t start = 0;
        while (start <= owners.size()) {
            size_t end = owners.find(',', start);
            if (end == std::string_view::npos) end = owners.size();
            if (owners.substr(start, end - start) == feed) return true;
            start = end + 1;
        }
        return false;
    }

    // This feed lists the product (at the select_ row): it becomes one of its owners; a deleted
    // product it brings back, or one stored without owners, is its alone.
    Status claim(const std::string& sku, bool deleted) {
        int ownersColumn = columnCount_ + 4;
        std::string owners;
        if (!deleted && !select_->isNull(ownersColumn)) {
            owners = select_->text(ownersColumn);
            if (ownersInclude(owners, feed_)) return Status::success();
            std::vector<std::string> names;
            splitListInto(owners, ',', names);
            names.push_back(feed_);
            std::sort(names.begin(), names.end());
            owners = joinOwners(names);
        } else {
            owners = feed_;
        }
        own_->reset();
        own_->bind(1, owners).bindUnowned(2, sku);
        return own_->run();
    }

    // For a full feed: the live products it owned and no longer lists. Those no other feed owns
    // are orphaned (marked deleted at commit), the others only lose this owner. Live products
    // this import wrote are all listed: when it wrote every live product, no scan is needed.
    Status findDropped(const SkuSet& listed) {
        if (droppedFound_) return Status::success();
        droppedFound_ = true;
        if (!describes_ || liveBefore() - liveSeen_ <= 0) return Status::success();
        auto live = db_->prepare("SELECT sku, feeds FROM products WHERE deleted = 0");
        if (!live) return live.error();
        std::vector<std::string> names;
        while (true) {
            auto row = live->step();
            if (!row) return row.error();
            if (!*row) break;
            std::string sku = live->text(0);
            if (listed.count(sku)) continue;
            if (live->isNull(1)) {
                orphaned_.push_back(std::move(sku));
                continue;
            }
            std::string owners = live->text(1);
            if (!ownersInclude(owners, feed_)) continue;
            names.clear();
            splitListInto(owners, ',', names);
            names.erase(std::remove(names.begin(), names.end(), feed_), names.end());
            if (names.empty()) orphaned_.push_back(std::move(sku));
            else disowned_.emplace_back(std::move(sku), joinOwners(names));
        }
        return Status::success();
    }

    // The stored row has properties this feed has no column for: they stay, the feed's own
    // columns are laid over them (an empty value removes one), and the property columns'
    // bits in `differs` are set from comparing the result with the stored values.
    Status mergeStoredProperties(const Product& product, uint64_t& differs) {
        int setColumn = columnCount_ + 2;
        int64_t storedSet = select_->integer(setColumn);
        if (storedSet == 0 || coveredByFeed(storedSet)) return Status::success();
        const auto& names = propertyNames_.names(storedSet);
        auto values = parseStringArray(select_->text(setColumn + 1));
        merged_ = product.properties;
        for (size_t i = 0; i < names.size() && i < values.size(); ++i) {
            if (!std::binary_search(propertyColumns_.begin(), propertyColumns_.end(), names[i])) merged_.emplace(names[i], std::move(values[i]));
        }
        if (auto status = encodeProperties(merged_); !status) return status;
        uint64_t propertyBits = uint64_t{3} << (columnCount_ - 2);  // property_set and property_values come last
        differs &= ~propertyBits;
        if (propertySetId_ != storedSet || scratchProperties_ != select_->text(setColumn + 1)) differs |= propertyBits;
        return Status::success();
    }

    // Whether every property of a stored set is one this feed has a column for (then the row's
    // own properties are the whole result: the common case of a feed seen again).
    bool coveredByFeed(int64_t setId) {
        auto known = covered_.find(setId);
        if (known != covered_.end()) return known->second;
        bool covered = true;
        for (const auto& name : propertyNames_.names(setId)) {
            covered = covered && std::binary_search(propertyColumns_.begin(), propertyColumns_.end(), name);
        }
        return covered_.emplace(setId, covered).first->second;
    }

    // Every row stamped with this import's sequence is listed, up to a bound: beyond it,
    // reading the articles by key would cost about what the scan of the stamps does, and
    // a full feed seen again after an hour (every row touched) should not copy every SKU.
    static constexpr size_t kMaxListedChanges = 1 << 16;
    void noteChanged(const std::string& sku) {
        if (!change_.complete) return;
        if (change_.skus.size() >= kMaxListedChanges) {
            change_.complete = false;
            std::vector<std::string>().swap(change_.skus);
            return;
        }
        change_.skus.push_back(sku);
    }

    Status prepareStatements(const FeedShape& shape) {
        fields_ = shape.fields;
        propertyColumns_ = shape.propertyColumns;
        covered_.clear();
        describes_ = shape.describesProducts();
        bool replaceProperties = !propertyColumns_.empty();
        replaceProperties_ = replaceProperties;
        const auto& fields = fields_;
        orderedFields_.clear();
        std::vector<std::string> columns;
        for (FeedField field : fields) {
            if (field == FeedField::Sku) continue;
            orderedFields_.push_back(field);
            for (const char* column : CatalogColumns::of(field)) columns.emplace_back(column);
        }
        if (replaceProperties) {
            columns.emplace_back("property_set");
            columns.emplace_back("property_values");
        }
        columnCount_ = static_cast<int>(columns.size());
        if (columnCount_ > 62) return Error::internal("a feed writes more columns than an update mask holds");

        // main_sku is NOT NULL: an insert writes it even when the feed has no main-sku column
        // (then it is the SKU, see FeedRowMapper).
        bool feedHasMainSku = fields.count(FeedField::MainSku) > 0;
        std::string select = "SELECT deleted, last_seen_at";
        std::string insert = std::string("INSERT INTO products(sku, updated_at, last_seen_at, change_seq, feeds") + (feedHasMainSku ? "" : ", main_sku");
        std::string insertValues = std::string("VALUES (?, ?, ?, ") + changeSeq_ + ", ?" + (feedHasMainSku ? "" : ", ?");
        for (const auto& column : columns) {
            select += ", " + column + " IS ?";
            insert += ", " + column;
            insertValues += ", ?";
        }
        select += ", property_set, property_values, feeds FROM products WHERE sku = ?";
        insertMainSkuSeparately_ = !feedHasMainSku;
        columns_ = std::move(columns);
        updates_.clear();
        auto selectStatement = db_->prepare(select);
        auto insertStatement = db_->prepare(insert + ") " + insertValues + ")");
        // Seen again: availability may change (the 24-hour rule), so the row counts as changed.
        auto touchStatement = db_->prepare("UPDATE products SET last_seen_at = ?, change_seq = " + changeSeq_ + " WHERE sku = ?");
        auto ownStatement = db_->prepare("UPDATE products SET feeds = ? WHERE sku = ?");
        for (auto* statement : {&selectStatement, &insertStatement, &touchStatement, &ownStatement}) {
            if (!*statement) return statement->error();
        }
        select_.emplace(std::move(*selectStatement));
        insert_.emplace(std::move(*insertStatement));
        touch_.emplace(std::move(*touchStatement));
        own_.emplace(std::move(*ownStatement));
        return Status::success();
    }

    // The UPDATE that sets the columns in `changed` (bit i: columns_[i]; kReviveBit: deleted
    // = 0), prepared once per combination; a feed has few (its rows tend to change the same
    // columns). Its parameters are numbered like the full column list (?1, ?2: times,
    // ?3...: columns, then the SKU), so bindValues binds every combination the same way.
    static constexpr uint64_t kReviveBit = uint64_t{1} << 63;
    Result<SqliteStatement*> updateFor(uint64_t changed) {
        auto found = updates_.find(changed);
        if (found != updates_.end()) return &found->second;
        std::string sql = std::string("UPDATE products SET ") + ((changed & kReviveBit) ? "deleted = 0, " : "") +
                          "updated_at = ?1, last_seen_at = ?2, change_seq = " + changeSeq_;
        for (int i = 0; i < columnCount_; ++i) {
            if (changed & (uint64_t{1} << i)) sql += ", " + columns_[i] + " = ?" + std::to_string(i + 3);
        }
        sql += " WHERE sku = ?" + std::to_string(columnCount_ + 3);
        auto statement = db_->prepare(sql);
        if (!statement) return statement.error();
        return &updates_.emplace(changed, std::move(*statement)).first->second;
    }

    int bindValues(SqliteStatement& statement, int index, const Product& product) {
        for (FeedField field : orderedFields_) index = bindField(statement, index, field, product, scratch_);
        if (replaceProperties_) {
            statement.bind(index++, propertySetId_);
            statement.bindUnowned(index++, scratchProperties_);
        }
        return index;
    }

    // The row's property names become a set id (created on first use), its values a JSON array.
    Status encodeProperties(const std::map<std::string, std::string>& properties) {
        if (properties.empty()) {
            propertySetId_ = 0;
            scratchProperties_.clear();
            return Status::success();
        }
        // Rows of one feed nearly always carry the same names: when they match the previous
        // row's, its set id stands and no key is built or looked up.
        bool sameNames = propertySetId_ != 0 && properties.size() == previousNames_.size();
        scratchProperties_ = "[";
        size_t position = 0;
        for (const auto& [name, value] : properties) {
            if (position) scratchProperties_ += ',';
            appendJsonString(scratchProperties_, value);
            sameNames = sameNames && previousNames_[position] == name;
            ++position;
        }
        scratchProperties_ += ']';
        if (sameNames) return Status::success();
        propertySetId_ = 0;  // until the new names have their id
        previousNames_.clear();
        namesKey_ = "[";
        for (const auto& [name, value] : properties) {
            if (!previousNames_.empty()) namesKey_ += ',';
            appendJsonString(namesKey_, name);
            previousNames_.push_back(name);
        }
        namesKey_ += ']';
        auto known = propertySets_.find(namesKey_);
        if (known != propertySets_.end()) {
            propertySetId_ = known->second;
            return Status::success();
        }
        auto find = db_->prepare("SELECT id FROM property_sets WHERE names = ?");
        if (!find) return find.error();
        find->bind(1, namesKey_);
        auto row = find->step();
        if (!row) return row.error();
        if (*row) {
            propertySetId_ = find->integer(0);
        } else {
            auto insert = db_->prepare("INSERT INTO property_sets(names) VALUES (?)");
            if (!insert) return insert.error();
            insert->bind(1, namesKey_);
            if (auto status = insert->run(); !status) return status;
            propertySetId_ = db_->lastInsertRowId();
        }
        propertySets_.emplace(namesKey_, propertySetId_);
        return Status::success();
    }

    std::unique_ptr<SqliteDatabase> db_;
    SqliteTransaction transaction_;
    int64_t now_;
    std::string changeSeq_ = "0";  // this import's catalog_changes.seq
    ImportCounts counts_;
    CatalogChange change_;  // what takeChange() hands over: the SKUs stamped with changeSeq_
    mutable std::optional<int64_t> liveAtStart_;
    int64_t revived_ = 0;
    int64_t liveSeen_ = 0;
    bool emptyAtStart_ = false;
    bool rollbackJournal_ = false;
    std::string feed_;  // the feed this import belongs to: the owner of what it lists
    PropertySetNames propertyNames_;  // this connection's view, sets this import added included
    std::set<FeedField> fields_;
    std::vector<std::string> propertyColumns_;  // sorted
    std::unordered_map<int64_t, bool> covered_;  // see coveredByFeed()
    std::map<std::string, std::string> merged_;
    bool describes_ = false;
    bool droppedFound_ = false;
    std::vector<std::string> orphaned_;  // see findDropped()
    std::vector<std::pair<std::string, std::string>> disowned_;  // SKU, its remaining owners
    const FeedShape* shapeSeen_ = nullptr;
    std::vector<FeedField> orderedFields_;
    bool replaceProperties_ = false;
    bool insertMainSkuSeparately_ = false;
    int columnCount_ = 0;
    std::vector<std::string> columns_;  // the columns this feed writes, in bind order
    std::optional<SqliteStatement> select_, insert_, touch_, own_;
    std::unordered_map<uint64_t, SqliteStatement> updates_;  // see updateFor()
    std::string scratch_, scratchProperties_, namesKey_;
    int64_t propertySetId_ = 0;
    std::unordered_map<std::string, int64_t> propertySets_;
    std::vector<std::string> previousNames_;  // the names of propertySetId_
};

}  // namespace

SqliteCatalogStore::SqliteCatalogStore(std::string directory, const Clock& clock) : directory_(std::move(directory)), clock_(clock) {
    (void)PrivateFiles::createDirectories(directory_);
}

std::string SqliteCatalogStore::pathFor(int64_t tenantId) const {
    return directory_ + "/tenant-" + std::to_string(tenantId) + ".sqlite3";
}

Result<SqliteCatalogStore::Reader*> SqliteCatalogStore::reader(int64_t tenantId) {
    std::lock_guard lock(readersMutex_);
    auto& slot = readers_[tenantId];
    if (!slot) {
        auto db = SqliteDatabase::open(pathFor(tenantId));
        if (!db) {
            readers_.erase(tenantId);
            return db.error();
        }
        if (auto status = migrate(**db, DatabaseKind::Catalog); !status) {
            readers_.erase(tenantId);
            return status.error();
        }
        slot = std::make_unique<Reader>();
        slot->db = std::move(*db);
        slot->propertyNames = std::make_unique<PropertySetNames>(*slot->db);
    }
    return slot.get();
}

namespace {

// An initial load (empty catalog) writes every row once, into the database file, when the
// connection uses a rollback journal: pages appended past the file's size at the start
// need no journal entry, and a crash still rolls back to the empty catalog. In WAL mode
// every page goes to the WAL first and is copied again by the checkpoint (ADR 0012).
// Leaving WAL needs the only connection to the file: when a reader holds it open, the
// import stays in WAL mode, which is only slower.
bool switchToRollbackJournalIfEmpty(SqliteDatabase& db) {
    {
        auto any = db.prepare("SELECT NOT EXISTS (SELECT 1 FROM products)");
        if (!any) return false;
        auto row = any->step();
        if (!row || !*row || any->integer(0) == 0) return false;
    }
    sqlite3_busy_timeout(db.handle(), 0);
    auto mode = db.prepare("PRAGMA journal_mode=DELETE");
    bool switched = false;
    if (mode) {
        auto row = mode->step();
        switched = row && *row && mode->text(0) == "delete";
    }
    return switched;
}

}  // namespace

Result<std::unique_ptr<CatalogImport>> SqliteCatalogStore::beginImport(int64_t tenantId, int64_t now, const std::string& feed) {
    auto db = SqliteDatabase::open(pathFor(tenantId));
    if (!db) return db.error();
    {
        // The same lock as reader(): two connections never run the migrations at once.
        std::lock_guard lock(readersMutex_);
        if (auto status = migrate(**db, DatabaseKind::Catalog); !status) return status.error();
    }
    bool rollbackJournal = switchToRollbackJournalIfEmpty(**db);
    // A larger page cache for the import connection only: imports touch many pages once.
    // Imports are queued work: waiting for another import of this tenant beats failing.
    if (auto status = (*db)->execute("PRAGMA cache_size = -65536"); !status) return status.error();
    // Index builds after an initial load sort with a helper thread (this machine has two cores).
    if (auto status = (*db)->execute("PRAGMA threads = 2"); !status) return status.error();
    sqlite3_busy_timeout((*db)->handle(), 15 * 60 * 1000);
    auto transaction = SqliteTransaction::begin(**db);
    if (!transaction) return transaction.error();
    auto import = std::make_unique<SqliteCatalogImport>(std::move(*db), std::move(*transaction), now, rollbackJournal, feed);
    if (auto status = import->prepare(); !status) return status.error();
    return std::unique_ptr<CatalogImport>(std::move(import));
}

Result<std::vector<Product>> SqliteCatalogStore::articleVariants(int64_t tenantId, const std::string& skuOrMainSku) {
    auto tenant = reader(tenantId);
    if (!tenant) return tenant.error();
    std::lock_guard lock((*tenant)->mutex);
    auto query = (*tenant)->db->prepare(std::string("SELECT ") + kProductColumns +
                                        " FROM products WHERE main_sku = COALESCE((SELECT main_sku FROM products WHERE sku = ?1), ?1)"
                                        " ORDER BY sku");
    if (!query) return query.error();
    query->bind(1, skuOrMainSku);
    return readProducts(*query, clock_.nowSeconds(), *(*tenant)->propertyNames);
}

Status SqliteCatalogStore::forEachLiveProduct(int64_t tenantId, const std::function<void(Product&&)>& visit) {
    auto read = forEachProductChangedSince(tenantId, -1, [&](Product&& product) {
        if (!product.deleted) visit(std::move(product));
    });
    if (!read) return read.error();
    return {};
}

Result<int64_t> SqliteCatalogStore::forEachProductChangedSince(int64_t tenantId, int64_t sinceSequence,
                                                               const std::function<void(Product&&)>& visit) {
    auto read = readChanges(tenantId, sinceSequence, nullptr, visit);
    if (!read) return read.error();
    return read->sequence;
}

Result<CatalogStore::ChangedRead> SqliteCatalogStore::forEachChangedProduct(int64_t tenantId, int64_t sinceSequence,
                                                                            const KnownChanges& known,
                                                                            const std::function<void(Product&&)>& visit) {
    return readChanges(tenantId, sinceSequence, &known, visit);
}

namespace {

// The SKUs of `known` when they account for every import after `since` (catalog_changes
// holds a row per committed import; a rolled-back one leaves none), else nullopt: an
// import of another process, or one this process did not list, can only be found by a scan.
Result<std::optional<std::vector<std::string_view>>> knownSkusSince(SqliteDatabase& db, int64_t since, const KnownChanges& known) {
    auto imports = db.prepare("SELECT seq FROM catalog_changes WHERE seq > ?1 ORDER BY seq");
    if (!imports) return imports.error();
    imports->bind(1, since);
    std::vector<std::string_view> skus;
    while (true) {
        auto row = imports->step();
        if (!row) return row.error();
        if (!*row) break;
        auto change = known.find(imports->integer(0));
        if (change == known.end() || !change->second->complete) return std::optional<std::vector<std::string_view>>();
        for (const auto& sku : change->second->skus) skus.push_back(sku);
        if (skus.size() > kMaxKeyedReads) return std::optional<std::vector<std::string_view>>();
    }
    return std::optional<std::vector<std::string_view>>(std::move(skus));
}

}  // namespace

Result<CatalogStore::ChangedRead> SqliteCatalogStore::readChanges(int64_t tenantId, int64_t sinceSequence, const KnownChanges* known,
                                                                  const std::function<void(Product&&)>& visit) {
    // A connection of its own, closed afterwards: a long scan never blocks the reader, and
    // an empty catalog keeps no connection open that would stop an initial load from
    // leaving WAL mode (ADR 0012).
    if (!std::filesystem::exists(pathFor(tenantId))) return ChangedRead{0, known != nullptr};
    auto db = SqliteDatabase::open(pathFor(tenantId));
    if (!db) return db.error();
    {
        std::lock_guard lock(readersMutex_);
        if (auto status = migrate(**db, DatabaseKind::Catalog); !status) return status.error();
    }
    // One consistent read, without the write lock: a read during an import sees the catalog as
    // it was before it instead of waiting for it (and failing after the busy timeout).
    auto transaction = SqliteTransaction::beginRead(**db);
    if (!transaction) return transaction.error();
    ChangedRead read;
    {
        auto latest = (*db)->prepare("SELECT COALESCE(MAX(seq), 0) FROM catalog_changes");
        if (!latest) return latest.error();
        auto row = latest->step();
        if (!row) return row.error();
        read.sequence = latest->integer(0);
    }
    std::optional<std::vector<std::string_view>> keys;
    if (known && sinceSequence >= 0) {
        auto listed = knownSkusSince(**db, sinceSequence, *known);
        if (!listed) return listed.error();
        keys = std::move(*listed);
    }
    read.byKey = keys.has_value();
    PropertySetNames propertyNames(**db);
    int64_t now = clock_.nowSeconds();
    if (keys) {
        // By key: each SKU's main SKU through the SKU index, then each main SKU's variants
        // through the main-SKU index, in main-SKU order (as the scan gives them).
        auto mainSkuOf = (*db)->prepare("SELECT main_sku FROM products WHERE sku = ?1");
        auto variants = (*db)->prepare(std::string("SELECT ") + kProductColumns + " FROM products WHERE main_sku = ?1 ORDER BY sku");
        if (!mainSkuOf) return mainSkuOf.error();
        if (!variants) return variants.error();
        std::set<std::string> mainSkus;
        for (std::string_view sku : *keys) {
            mainSkuOf->reset();
            mainSkuOf->bindUnowned(1, sku);
            auto row = mainSkuOf->step();
            if (!row) return row.error();
            if (*row) mainSkus.insert(mainSkuOf->text(0));
        }
        for (const auto& mainSku : mainSkus) {
            variants->reset();
            variants->bindUnowned(1, mainSku);
            while (true) {
                auto row = variants->step();
                if (!row) return row.error();
                if (!*row) break;
                visit(readProduct(*variants, now, propertyNames));
            }
        }
        return read;
    }
    std::string sql = std::string("SELECT ") + kProductColumns + " FROM products";
    if (sinceSequence >= 0) sql += " WHERE main_sku IN (SELECT main_sku FROM products WHERE change_seq > ?1)";
    // Variants by SKU within their article, as the header promises: the main-SKU index alone
    // gives them in the order they were first stored.
    auto query = (*db)->prepare(sql + " ORDER BY main_sku, sku");
    if (!query) return query.error();
    if (sinceSequence >= 0) query->bind(1, sinceSequence);
    while (true) {
        auto row = query->step();
        if (!row) return row.error();
        if (!*row) break;
        visit(readProduct(*query, now, propertyNames));
    }
    return read;
}

Result<CatalogStats> SqliteCatalogStore::stats(int64_t tenantId) {
    auto tenant = reader(tenantId);
    if (!tenant) return tenant.error();
    std::lock_guard lock((*tenant)->mutex);
    auto query = (*tenant)->db->prepare(
        "SELECT COUNT(*), COALESCE(SUM(stock > 0 AND last_seen_at >= ?), 0) FROM products WHERE deleted = 0");
    if (!query) return query.error();
    query->bind(1, clock_.nowSeconds() - kAbsentAfterSeconds);
    auto row = query->step();
    if (!row) return row.error();
    return CatalogStats{query->integer(0), query->integer(1)};
}

}  // namespace svc
