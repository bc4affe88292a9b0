#include "graphql/ContentSchema.hpp"

#include <algorithm>

#include "graphql/Cursor.hpp"
#include "money/MoneyFormatter.hpp"

namespace svc::graphql {
namespace {

constexpr int64_t kMaxFirst = 100;

Schema buildContentSchema() {
    Schema schema;
    schema.addType(objectType("Query", {fieldDef("product", "Product", {argumentDef("id", "ID!")})}));
    schema.addType(objectType("Product", {
        fieldDef("id", "ID!"),
        fieldDef("name", "String!"),
        fieldDef("brand", "String"),
        fieldDef("modelId", "String"),
        fieldDef("url", "String!"),
        fieldDef("similarProducts", "ProductConnection!", {argumentDef("first", "Int", 12), argumentDef("after", "String")}),
    }));
    schema.addType(objectType("ProductConnection", {fieldDef("edges", "[ProductEdge!]!"), fieldDef("pageInfo", "PageInfo!")}));
    schema.addType(objectType("ProductEdge", {fieldDef("node", "Product!"), fieldDef("cursor", "String!")}));
    schema.addType(objectType("PageInfo", {fieldDef("endCursor", "String"), fieldDef("hasNextPage", "Boolean!")}));
    return schema;
}

nlohmann::json optionalString(const std::string& text) { return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text); }

class PageInfoResolver : public ObjectResolver {
public:
    PageInfoResolver(std::string endCursor, bool hasNextPage) : endCursor_(std::move(endCursor)), hasNextPage_(hasNextPage) {}
    std::string typeName() const override { return "PageInfo"; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues&) const override {
        if (field == "endCursor") return ResolvedValue::scalar(optionalString(endCursor_));
        if (field == "hasNextPage") return ResolvedValue::scalar(hasNextPage_);
        return Error::internal("PageInfo has no field " + field);
    }

private:
    std::string endCursor_;
    bool hasNextPage_;
};

class EdgeResolver : public ObjectResolver {
public:
    EdgeResolver(ObjectPtr node, std::string cursor) : node_(std::move(node)), cursor_(std::move(cursor)) {}
    std::string typeName() const override { return typeName_; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues&) const override {
        if (field == "node") return ResolvedValue::object(node_);
        if (field == "cursor") return ResolvedValue::scalar(cursor_);
        return Error::internal("edge has no field " + field);
    }
    std::string typeName_ = "ProductEdge";

private:
    ObjectPtr node_;
    std::string cursor_;
};

class ConnectionResolver : public ObjectResolver {
public:
    ConnectionResolver(std::string typeName, std::vector<std::shared_ptr<EdgeResolver>> edges, bool hasNextPage)
        : typeName_(std::move(typeName)), edges_(std::move(edges)), hasNextPage_(hasNextPage) {}
    std::string typeName() const override { return typeName_; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues&) const override {
        if (field == "edges") {
            std::vector<ResolvedValue> items;
            for (const auto& edge : edges_) items.push_back(ResolvedValue::object(edge));
            return ResolvedValue::list(std::move(items));
        }
        if (field == "pageInfo") {
            std::string endCursor;
            if (!edges_.empty()) {
                auto cursor = edges_.back()->resolve("cursor", {});
                endCursor = std::get<nlohmann::json>(cursor->value).get<std::string>();
            }
            return ResolvedValue::object(std::make_shared<PageInfoResolver>(endCursor, hasNextPage_));
        }
        return Error::internal(typeName_ + " has no field " + field);
    }

private:
    std::string typeName_;
    std::vector<std::shared_ptr<EdgeResolver>> edges_;
    bool hasNextPage_;
};

// Reads and checks `first` and `after`; both refusals name the argument.
Result<std::pair<size_t, size_t>> pageWindow(const ArgumentValues& arguments, const std::string& listName) {
    int64_t first = arguments.value("first", nlohmann::json(12)).is_null() ? 12 : arguments.value("first", 12);
    if (first < 0) return Error::invalidArgument("first: must not be negative");
    if (first > kMaxFirst) return Error::invalidArgument("first: at most " + std::to_string(kMaxFirst) + " items per page");
    size_t offset = 0;
    if (arguments.contains("after") && arguments["after"].is_string()) {
        auto decoded = decodeCursor(arguments["after"].get<std::string>(), listName);
        if (!decoded) return decoded.error();
        offset = *decoded + 1;
    }
    return std::pair<size_t, size_t>{offset, static_cast<size_t>(first)};
}

class ProductResolver : public ObjectResolver {
public:
    ProductResolver(Article article, std::shared_ptr<ContentContext> context)
        : article_(std::move(article)), context_(std::move(context)) {}
    std::string typeName() const override { return "Product"; }

    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues& arguments) const override {
        const Product& product = article_.representative();
        if (field == "id") return ResolvedValue::scalar(article_.mainSku);
        if (field == "name") return ResolvedValue::scalar(product.name);
        if (field == "brand") return ResolvedValue::scalar(optionalString(product.brand));
        if (field == "modelId") return ResolvedValue::scalar(optionalString(product.model));
        if (field == "url") return ResolvedValue::scalar(product.deeplink);
        if (field == "similarProducts") return similarProducts(arguments);
        return Error::internal("Product has no field " + field);
    }

private:
    Result<ResolvedValue> similarProducts(const ArgumentValues& arguments) const {
        auto window = pageWindow(arguments, "similarProducts");
        if (!window) return window.error();
        auto [offset, first] = *window;
        // One more than the page tells whether a next page exists.
        auto similar = context_->recommendations.similarTo(context_->tenant.id, article_, offset + first + 1);
        if (!similar) return similar.error();
        std::vector<std::shared_ptr<EdgeResolver>> edges;
        for (size_t i = offset; i < similar->size() && i < offset + first; ++i) {
            auto node = std::make_shared<ProductResolver>((*similar)[i], context_);
            edges.push_back(std::make_shared<EdgeResolver>(node, encodeCursor(i, "similarProducts")));
        }
        bool hasNextPage = similar->size() > offset + first;
        return ResolvedValue::object(std::make_shared<ConnectionResolver>("ProductConnection", std::move(edges), hasNextPage));
    }

    Article article_;
    std::shared_ptr<ContentContext> context_;
};

class QueryResolver : public ObjectResolver {
public:
    explicit QueryResolver(std::shared_ptr<ContentContext> context) : context_(std::move(context)) {}
    std::string typeName() const override { return "Query"; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues& arguments) const override {
        if (field == "product") {
            const auto& id = arguments["id"];
            std::string text = id.is_string() ? id.get<std::string>() : id.dump();
            auto article = context_->recommendations.findArticle(context_->tenant.id, text);
            if (!article) return article.error();
            if (!*article || !(*article)->available()) return ResolvedValue::null();
            return ResolvedValue::object(std::make_shared<ProductResolver>(std::move(**article), context_));
        }
        return Error::internal("Query has no field " + field);
    }

private:
    std::shared_ptr<ContentContext> context_;
};

class UnauthorizedRoot : public ObjectResolver {
public:
    std::string typeName() const override { return "Query"; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues&) const override {
        return Error::unauthenticated("Not Authorized to access " + field + " on type Query");
    }
};

}  // namespace

const Schema& contentSchema() {
    static const Schema schema = buildContentSchema();
    return schema;
}

ObjectPtr makeQueryRoot(std::shared_ptr<ContentContext> context) { return std::make_shared<QueryResolver>(std::move(context)); }

ObjectPtr makeUnauthorizedRoot() { return std::make_shared<UnauthorizedRoot>(); }

}  // namespace svc::graphql
