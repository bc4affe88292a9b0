#include "graphql/ContentSchema.hpp"

#include <algorithm>

#include "graphql/Cursor.hpp"
#include "money/MoneyFormatter.hpp"
#include "text/StringUtil.hpp"

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
        fieldDef("tags", "[String!]!"),
        fieldDef("images", "ImageConnection!", {argumentDef("first", "Int", 10), argumentDef("after", "String")}),
        fieldDef("variants", "ProductVariantConnection!", {argumentDef("first", "Int", 50), argumentDef("after", "String")}),
        fieldDef("similarProducts", "ProductConnection!", {argumentDef("first", "Int", 12), argumentDef("after", "String")}),
    }));
    schema.addType(objectType("Image", {fieldDef("url", "String!"), fieldDef("thumbnailUrl", "String")}));
    schema.addType(objectType("ProductVariant", {
        fieldDef("id", "ID!"),
        fieldDef("size", "String"),
        fieldDef("price", "Price!"),
        fieldDef("manufacturerSuggestedRetailPrice", "Price"),
    }));
    schema.addType(objectType("Price", {fieldDef("amount", "String!"), fieldDef("currencyCode", "CurrencyCode!")}));
    TypeDefinition currency;
    currency.kind = TypeDefinition::Kind::Enum;
    currency.name = "CurrencyCode";
    currency.enumValues = {"EUR", "PLN", "USD"};
    schema.addType(std::move(currency));
    for (const char* node : {"Product", "Image", "ProductVariant"}) {
        std::string name = node;
        schema.addType(objectType(name + "Connection", {fieldDef("edges", "[" + name + "Edge!]!"), fieldDef("pageInfo", "PageInfo!")}));
        schema.addType(objectType(name + "Edge", {fieldDef("node", name + "!"), fieldDef("cursor", "String!")}));
    }
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
    EdgeResolver(std::string typeName, ObjectPtr node, std::string cursor)
        : typeName_(std::move(typeName)), node_(std::move(node)), cursor_(std::move(cursor)) {}
    std::string typeName() const override { return typeName_; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues&) const override {
        if (field == "node") return ResolvedValue::object(node_);
        if (field == "cursor") return ResolvedValue::scalar(cursor_);
        return Error::internal("edge has no field " + field);
    }

private:
    std::string typeName_;
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
Result<std::pair<size_t, size_t>> pageWindow(const CursorCodec& cursors, const ArgumentValues& arguments, const std::string& listName) {
    int64_t first = arguments.value("first", nlohmann::json(12)).is_null() ? 12 : arguments.value("first", 12);
    if (first < 0) return Error::invalidArgument("first: must not be negative");
    if (first > kMaxFirst) return Error::invalidArgument("first: at most " + std::to_string(kMaxFirst) + " items per page");
    size_t offset = 0;
    if (arguments.contains("after") && arguments["after"].is_string()) {
        auto decoded = cursors.decode(arguments["after"].get<std::string>(), listName);
        if (!decoded) return decoded.error();
        offset = *decoded + 1;
    }
    return std::pair<size_t, size_t>{offset, static_cast<size_t>(first)};
}

// One page of `items` (those from `offset` on, at most `first`) as a <Node>Connection,
// each edge's cursor naming its index in the whole list.
template <typename Item, typename MakeNode>
ResolvedValue pageOf(const CursorCodec& cursors, const std::string& nodeType, const std::string& listName, const std::vector<Item>& items, size_t offset,
                     size_t first, MakeNode makeNode) {
    std::vector<std::shared_ptr<EdgeResolver>> edges;
    for (size_t i = offset; i < items.size() && i < offset + first; ++i) {
        edges.push_back(std::make_shared<EdgeResolver>(nodeType + "Edge", makeNode(items[i]), cursors.encode(i, listName)));
    }
    bool hasNextPage = items.size() > offset + first;
    return ResolvedValue::object(std::make_shared<ConnectionResolver>(nodeType + "Connection", std::move(edges), hasNextPage));
}

class ImageResolver : public ObjectResolver {
public:
    ImageResolver(std::string url, std::string thumbnailUrl) : url_(std::move(url)), thumbnailUrl_(std::move(thumbnailUrl)) {}
    std::string typeName() const override { return "Image"; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues&) const override {
        if (field == "url") return ResolvedValue::scalar(url_);
        if (field == "thumbnailUrl") return ResolvedValue::scalar(optionalString(thumbnailUrl_));
        return Error::internal("Image has no field " + field);
    }

private:
    std::string url_, thumbnailUrl_;
};

class PriceResolver : public ObjectResolver {
public:
    PriceResolver(int64_t cents, std::string currencyCode) : cents_(cents), currencyCode_(std::move(currencyCode)) {}
    std::string typeName() const override { return "Price"; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues&) const override {
        // A decimal string, as the predecessor's API: cents never pass through a float.
        if (field == "amount") {
            std::string fraction = std::to_string(cents_ % 100);
            return ResolvedValue::scalar(std::to_string(cents_ / 100) + "." + (fraction.size() == 1 ? "0" : "") + fraction);
        }
        if (field == "currencyCode") return ResolvedValue::scalar(currencyCode_);
        return Error::internal("Price has no field " + field);
    }

private:
    int64_t cents_;
    std::string currencyCode_;
};

class VariantResolver : public ObjectResolver {
public:
    // `variant` is one of `article`'s, which this keeps alive.
    VariantResolver(std::shared_ptr<const Article> article, const Product& variant, std::string currencyCode)
        : article_(std::move(article)), variant_(variant), currencyCode_(std::move(currencyCode)) {}
    std::string typeName() const override { return "ProductVariant"; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues&) const override {
        if (field == "id") return ResolvedValue::scalar(variant_.sku);
        if (field == "size") return ResolvedValue::scalar(optionalString(variant_.variant));
        if (field == "price") return ResolvedValue::object(std::make_shared<PriceResolver>(*variant_.sellingPrice(), currencyCode_));
        if (field == "manufacturerSuggestedRetailPrice") {
            if (!variant_.retailPrice) return ResolvedValue::null();
            return ResolvedValue::object(std::make_shared<PriceResolver>(*variant_.retailPrice, currencyCode_));
        }
        return Error::internal("ProductVariant has no field " + field);
    }

private:
    std::shared_ptr<const Article> article_;
    const Product& variant_;
    std::string currencyCode_;
};

class ProductResolver : public ObjectResolver {
public:
    ProductResolver(std::shared_ptr<const Article> article, std::shared_ptr<ContentContext> context)
        : article_(std::move(article)), context_(std::move(context)) {}
    std::string typeName() const override { return "Product"; }

    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues& arguments) const override {
        const Product& product = article_->representative();
        if (field == "id") return ResolvedValue::scalar(article_->mainSku);
        if (field == "name") return ResolvedValue::scalar(product.name);
        if (field == "brand") return ResolvedValue::scalar(optionalString(product.brand));
        if (field == "modelId") return ResolvedValue::scalar(optionalString(product.model));
        if (field == "url") return ResolvedValue::scalar(product.deeplink);
        if (field == "tags") return tags(product);
        if (field == "images") return images(arguments);
        if (field == "variants") return variants(arguments);
        if (field == "similarProducts") return similarProducts(arguments);
        return Error::internal("Product has no field " + field);
    }

private:
    // From the feed's `tags` column (comma-separated; any column the feed does not map is a property).
    static ResolvedValue tags(const Product& product) {
        std::vector<ResolvedValue> items;
        auto found = product.properties.find("tags");
        if (found != product.properties.end()) {
            for (auto& tag : splitList(found->second, ',')) items.push_back(ResolvedValue::scalar(std::move(tag)));
        }
        return ResolvedValue::list(std::move(items));
    }

    // The article's distinct images: the representative's first, then other variants' own.
    Result<ResolvedValue> images(const ArgumentValues& arguments) const {
        auto window = pageWindow(context_->cursors, arguments, "images");
        if (!window) return window.error();
        std::vector<const Product*> withImage;
        auto add = [&](const Product& variant) {
            if (variant.image.empty()) return;
            for (const Product* seen : withImage) {
                if (seen->image == variant.image) return;
            }
            withImage.push_back(&variant);
        };
        add(article_->representative());
        for (const auto& variant : article_->variants) add(variant);
        return pageOf(context_->cursors, "Image", "images", withImage, window->first, window->second, [](const Product* variant) {
            return std::make_shared<ImageResolver>(variant->image, variant->thumbnail);
        });
    }

    // Variants a shopper can buy: available and priced, in SKU order (as the store lists them).
    Result<ResolvedValue> variants(const ArgumentValues& arguments) const {
        auto window = pageWindow(context_->cursors, arguments, "variants");
        if (!window) return window.error();
        std::vector<const Product*> buyable;
        for (const auto& variant : article_->variants) {
            if (variant.available() && variant.sellingPrice()) buyable.push_back(&variant);
        }
        const std::string& currency = context_->tenant.currency;
        return pageOf(context_->cursors, "ProductVariant", "variants", buyable, window->first, window->second,
                      [&](const Product* variant) { return std::make_shared<VariantResolver>(article_, *variant, currency); });
    }

    Result<ResolvedValue> similarProducts(const ArgumentValues& arguments) const {
        auto window = pageWindow(context_->cursors, arguments, "similarProducts");
        if (!window) return window.error();
        auto [offset, first] = *window;
        // One more than the page tells whether a next page exists.
        auto similar = context_->recommendations.similarTo(context_->tenant.id, *article_, offset + first + 1);
        if (!similar) return similar.error();
        return pageOf(context_->cursors, "Product", "similarProducts", *similar, offset, first,
                      [&](const Article& article) {
                          return std::make_shared<ProductResolver>(std::make_shared<const Article>(article), context_);
                      });
    }

    std::shared_ptr<const Article> article_;
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
            return ResolvedValue::object(std::make_shared<ProductResolver>(std::make_shared<const Article>(std::move(**article)), context_));
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
