#include "store/SqliteCatalogStore.hpp"

#include <ctime>
#include <nlohmann/json.hpp>

namespace svc {
namespace {

constexpr const char* kProductColumns =
    "sku, main_sku, model, variant, name, deeplink, image, thumbnail, brand, color, description, category_paths, "
    "stock, retail_price, discount_price, lowest_price_30d, properties, deleted";

Product readProduct(const SqliteStatement& row) {
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
    auto paths = nlohmann::json::parse(row.text(11), nullptr, false);
    if (paths.is_array()) {
        for (const auto& path : paths) {
            if (path.is_string()) product.categoryPaths.push_back(path.get<std::string>());
        }
    }
    product.stock = row.integer(12);
    product.retailPrice = row.optionalInteger(13);
    product.discountPrice = row.optionalInteger(14);
    product.lowestPrice30d = row.optionalInteger(15);
    auto properties = nlohmann::json::parse(row.text(16), nullptr, false);
    if (properties.is_object()) {
        for (const auto& [key, value] : properties.items()) {
            if (value.is_string()) product.properties[key] = value.get<std::string>();
        }
    }
    product.deleted = row.integer(17) != 0;
    return product;
}

Result<std::vector<Product>> readProducts(SqliteStatement& query) {
    std::vector<Product> products;
    while (true) {
        auto row = query.step();
        if (!row) return row.error();
        if (!*row) return products;
        products.push_back(readProduct(query));
    }
}

std::string categoryPathsJson(const Product& product) { return nlohmann::json(product.categoryPaths).dump(); }

std::string propertiesJson(const Product& product) {
    nlohmann::json object = nlohmann::json::object();
    for (const auto& [key, value] : product.properties) object[key] = value;
    return object.dump();
}

// The columns one feed field writes, with their values for a product.
struct ColumnValue {
    const char* column;
    std::variant<std::string, int64_t, std::optional<int64_t>> value;
};

std::vector<ColumnValue> columnsFor(FeedField field, const Product& product) {
    switch (field) {
        case FeedField::Sku: return {};
        case FeedField::MainSku: return {{"main_sku", product.mainSku}};
        case FeedField::Model: return {{"model", product.model}};
        case FeedField::Stock: return {{"stock", product.stock}};
        case FeedField::Variant: return {{"variant", product.variant}};
        case FeedField::Name: return {{"name", product.name}};
        case FeedField::RetailPrice: return {{"retail_price", product.retailPrice}};
        case FeedField::DiscountPrice: return {{"discount_price", product.discountPrice}};
        case FeedField::Deeplink: return {{"deeplink", product.deeplink}};
        case FeedField::Image: return {{"image", product.image}};
        case FeedField::Thumbnail: return {{"thumbnail", product.thumbnail}};
        case FeedField::CategoryPaths:
            return {{"category_paths", categoryPathsJson(product)}, {"primary_category", product.primaryCategory()}};
        case FeedField::Brand: return {{"brand", product.brand}};
        case FeedField::Color: return {{"color", product.color}};
        case FeedField::Description: return {{"description", product.description}};
        case FeedField::LowestPrice30d: return {{"lowest_price_30d", product.lowestPrice30d}};
    }
    return {};
}

void bindValue(SqliteStatement& statement, int index, const ColumnValue& column) {
    std::visit([&](const auto& value) { statement.bind(index, value); }, column.value);
}

class SqliteCatalogImport : public CatalogImport {
public:
    SqliteCatalogImport(std::unique_ptr<SqliteDatabase> db, SqliteTransaction transaction, int64_t tenantId)
        : db_(std::move(db)), transaction_(std::move(transaction)), tenantId_(tenantId) {}

    Status prepare() {
        if (auto status = db_->execute("CREATE TEMP TABLE IF NOT EXISTS import_seen (sku TEXT PRIMARY KEY) WITHOUT ROWID");
            !status) {
            return status;
        }
        return db_->execute("DELETE FROM temp.import_seen");
    }

    Status upsert(const Product& product, const std::set<FeedField>& fields, bool replaceProperties) override {
        std::vector<ColumnValue> columns;
        for (FeedField field : fields) {
            for (auto& column : columnsFor(field, product)) columns.push_back(std::move(column));
        }
        if (replaceProperties) columns.push_back({"properties", propertiesJson(product)});

        auto seen = db_->prepare("INSERT OR IGNORE INTO temp.import_seen(sku) VALUES (?)");
        if (!seen) return seen.error();
        seen->bind(1, product.sku);
        if (auto status = seen->run(); !status) return status;

        // Compare with the stored row, so the import reports exact counts and
        // leaves unchanged rows (and their updated_at) alone.
        std::string select = "SELECT deleted";
        for (const auto& column : columns) select += std::string(", ") + column.column + " IS ?";
        select += " FROM products WHERE tenant_id = ? AND sku = ?";
        auto existing = db_->prepare(select);
        if (!existing) return existing.error();
        int index = 1;
        for (const auto& column : columns) bindValue(*existing, index++, column);
        existing->bind(index++, tenantId_).bind(index, product.sku);
        auto found = existing->step();
        if (!found) return found.error();
        int64_t now = static_cast<int64_t>(std::time(nullptr));
        if (!*found) {
            std::string insert = "INSERT INTO products(tenant_id, sku, main_sku, updated_at";
            std::string values = "VALUES (?, ?, ?, ?";
            for (const auto& column : columns) {
                if (std::string(column.column) == "main_sku") continue;
                insert += std::string(", ") + column.column;
                values += ", ?";
            }
            auto statement = db_->prepare(insert + ") " + values + ")");
            if (!statement) return statement.error();
            int position = 1;
            statement->bind(position++, tenantId_).bind(position++, product.sku).bind(position++, product.mainSku).bind(position++, now);
            for (const auto& column : columns) {
                if (std::string(column.column) == "main_sku") continue;
                bindValue(*statement, position++, column);
            }
            if (auto status = statement->run(); !status) return status;
            ++counts_.inserted;
            return Status::success();
        }
        bool unchanged = existing->integer(0) == 0;
        for (size_t i = 0; i < columns.size() && unchanged; ++i) unchanged = existing->integer(static_cast<int>(i) + 1) != 0;
        if (unchanged) {
            ++counts_.unchanged;
            return Status::success();
        }
        std::string update = "UPDATE products SET deleted = 0, updated_at = ?";
        for (const auto& column : columns) update += std::string(", ") + column.column + " = ?";
        update += " WHERE tenant_id = ? AND sku = ?";
        auto statement = db_->prepare(update);
        if (!statement) return statement.error();
        int position = 1;
        statement->bind(position++, now);
        for (const auto& column : columns) bindValue(*statement, position++, column);
        statement->bind(position++, tenantId_).bind(position, product.sku);
        if (auto status = statement->run(); !status) return status;
        ++counts_.updated;
        return Status::success();
    }

    Result<ImportCounts> commit(bool markMissingDeleted) override {
        if (markMissingDeleted) {
            auto statement = db_->prepare(
                "UPDATE products SET deleted = 1, updated_at = ? WHERE tenant_id = ? AND deleted = 0 "
                "AND sku NOT IN (SELECT sku FROM temp.import_seen)");
            if (!statement) return statement.error();
            statement->bind(1, static_cast<int64_t>(std::time(nullptr))).bind(2, tenantId_);
            if (auto status = statement->run(); !status) return status.error();
            counts_.markedDeleted = db_->changes();
        }
        if (auto status = transaction_.commit(); !status) return status.error();
        return counts_;
    }

private:
    std::unique_ptr<SqliteDatabase> db_;
    SqliteTransaction transaction_;
    int64_t tenantId_;
    ImportCounts counts_;
};

}  // namespace

Result<std::unique_ptr<CatalogImport>> SqliteCatalogStore::beginImport(int64_t tenantId) {
    auto db = SqliteDatabase::open(databasePath_);
    if (!db) return db.error();
    auto transaction = SqliteTransaction::begin(**db);
    if (!transaction) return transaction.error();
    auto import = std::make_unique<SqliteCatalogImport>(std::move(*db), std::move(*transaction), tenantId);
    if (auto status = import->prepare(); !status) return status.error();
    return std::unique_ptr<CatalogImport>(std::move(import));
}

Result<std::vector<Product>> SqliteCatalogStore::articleVariants(int64_t tenantId, const std::string& skuOrMainSku) {
    std::lock_guard lock(readerMutex_);
    auto query = reader_.prepare(std::string("SELECT ") + kProductColumns +
                                 " FROM products WHERE tenant_id = ?1 AND main_sku = COALESCE("
                                 "(SELECT main_sku FROM products WHERE tenant_id = ?1 AND sku = ?2), ?2) ORDER BY sku");
    if (!query) return query.error();
    query->bind(1, tenantId).bind(2, skuOrMainSku);
    return readProducts(*query);
}

Result<std::vector<Product>> SqliteCatalogStore::availableInCategory(int64_t tenantId, const std::string& categoryPath,
                                                                     size_t limit) {
    std::lock_guard lock(readerMutex_);
    auto query = reader_.prepare(std::string("SELECT ") + kProductColumns +
                                 " FROM products WHERE tenant_id = ? AND primary_category = ? AND deleted = 0 AND stock > 0"
                                 " ORDER BY main_sku, sku LIMIT ?");
    if (!query) return query.error();
    query->bind(1, tenantId).bind(2, categoryPath).bind(3, static_cast<int64_t>(limit));
    return readProducts(*query);
}

Result<CatalogStats> SqliteCatalogStore::stats(int64_t tenantId) {
    std::lock_guard lock(readerMutex_);
    auto query = reader_.prepare(
        "SELECT COUNT(*), COALESCE(SUM(stock > 0), 0) FROM products WHERE tenant_id = ? AND deleted = 0");
    if (!query) return query.error();
    query->bind(1, tenantId);
    auto row = query->step();
    if (!row) return row.error();
    return CatalogStats{query->integer(0), query->integer(1)};
}

}  // namespace svc
