#include "graphql/ContentSchema.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <utility>

#include "graphql/Cursor.hpp"
#include "money/MoneyFormatter.hpp"
#include "text/StringUtil.hpp"

namespace svc::graphql {
namespace {

constexpr int64_t kMaxFirst = 100;
// Page sizes when `first` is absent or null: the public reference's defaults.
constexpr int64_t kDefaultImages = 10, kDefaultVariants = 50, kDefaultSimilar = 12, kDefaultClusterProducts = 12, kDefaultClusters = 5,
                  kDefaultCustomSets = 1, kDefaultProductSets = 10, kDefaultSetPhoto = 10, kDefaultSetCompose = 5;
constexpr size_t kMaxClusters = 8;        // positions of a complementary set
constexpr size_t kMaxGeneratedSets = 10;  // sets generated per anchor for productSets and setCompose
// A custom set lists at most 100 SKUs (sets/SetJson); a generated set is the anchor and one
// product per position. What the query cost counts for those lists (QueryCost).
constexpr uint64_t kMaxSetProducts = 100;

FieldDefinition deprecated(FieldDefinition field, std::string reason) {
    field.deprecationReason = std::move(reason);
    return field;
}

std::vector<ArgumentDefinition> page(int64_t defaultFirst) {
    return {argumentDef("first", "Int", defaultFirst), argumentDef("after", "String")};
}

// A connection field: its pages hold at most kMaxFirst items (what the query cost counts).
FieldDefinition connection(std::string name, const std::string& type, std::vector<ArgumentDefinition> arguments) {
    return withMaxItems(fieldDef(std::move(name), type, std::move(arguments)), kMaxFirst);
}

Schema buildContentSchema() {
    Schema schema;
    schema.setDescription(contentSchemaDescription());
    auto withInput = [](std::vector<ArgumentDefinition> arguments, const std::string& inputType) {
        arguments.push_back(argumentDef("input", inputType + "!"));
        return arguments;
    };
    schema.addType(objectType("Query", {
        fieldDef("product", "Product", {argumentDef("id", "ID!")}),
        // Every top-level field is nullable: an unauthorised request answers each one null with
        // its own error (the spec's Errors table), where a non-null one would null all of `data`.
        connection("productSets", "ProductSetConnection", withInput(page(kDefaultProductSets), "ProductSetsQueryInput")),
        connection("setPhoto", "SetPhotoConnection", withInput(page(kDefaultSetPhoto), "SetPhotoQueryInput")),
        fieldDef("customSet", "CustomSet", {argumentDef("id", "ID!")}),
        // The only deprecation of the spec's history (2.0.0); the classic queries it still names are not.
        deprecated(connection("setCompose", "SetComposeConnection", withInput(page(kDefaultSetCompose), "SetComposeQueryInput")),
                   "use matchingProductClusters on product"),
    }));
    schema.addType(objectType("Product", {
        fieldDef("id", "ID!"),
        fieldDef("name", "String!"),
        fieldDef("brand", "String"),
        fieldDef("modelId", "String"),
        fieldDef("url", "String!"),
        fieldDef("tags", "[String!]!"),
        connection("images", "ImageConnection!", page(kDefaultImages)),
        connection("variants", "ProductVariantConnection!", page(kDefaultVariants)),
        connection("similarProducts", "ProductConnection!", page(kDefaultSimilar)),
        connection("matchingProductClusters", "ProductClusterConnection!", page(kDefaultClusters)),
        connection("customSets", "CustomSetConnection!", page(kDefaultCustomSets)),
    }));
    schema.addType(objectType("Image", {fieldDef("url", "String!"), fieldDef("thumbnailUrl", "String")}));
    schema.addType(objectType("ProductVariant", {
        fieldDef("id", "ID!"),
        fieldDef("size", "String"),
        fieldDef("price", "Price!"),
        fieldDef("manufacturerSuggestedRetailPrice", "Price"),
    }));
    schema.addType(objectType("Price", {fieldDef("amount", "String!"), fieldDef("currencyCode", "CurrencyCode!")}));
    schema.addType(enumType("CurrencyCode", {"EUR", "PLN", "USD"}));
    schema.addType(objectType("ProductCluster", {
        fieldDef("id", "ID!"),
        fieldDef("name", "String!"),
        connection("products", "ProductConnection!", page(kDefaultClusterProducts)),
    }));
    schema.addType(objectType("CustomSet", {
        fieldDef("id", "ID!"),
        fieldDef("title", "String!"),
        fieldDef("description", "String"),
        fieldDef("tags", "[String!]!"),
        connection("images", "ImageConnection!", page(kDefaultImages)),
        withMaxItems(fieldDef("products", "[Product!]!"), kMaxSetProducts),
    }));
    schema.addType(objectType("ProductSet", {
        fieldDef("id", "ID!"),
        fieldDef("title", "String"),
        fieldDef("tags", "[String!]!"),
        fieldDef("imageLink", "String"),
        withMaxItems(fieldDef("products", "[Product!]!"), kMaxSetProducts),
    }));
    schema.addType(objectType("SetPhoto", {
        fieldDef("id", "ID!"),
        fieldDef("title", "String!"),
        fieldDef("tags", "[String!]!"),
        connection("images", "ImageConnection!", page(kDefaultImages)),
    }));
    schema.addType(objectType("SetCompose", {fieldDef("id", "ID!"), withMaxItems(fieldDef("items", "[SetComposeItem!]!"), kMaxClusters)}));
    schema.addType(objectType("SetComposeItem", {fieldDef("product", "Product!"),
                                                 withMaxItems(fieldDef("alternatives", "[Product!]!"), RecommendationService::kClusterSize)}));
    schema.addType(enumType("ProductSetsQueryType", {"SKU"}));
    schema.addType(enumType("SetPhotoQueryType", {"TAGS"}));
    schema.addType(enumType("SetComposeQueryType", {"SKU"}));
    schema.addType(inputObjectType("ProductSetsQueryInput", {argumentDef("queryType", "ProductSetsQueryType!"), argumentDef("value", "String!")}));
    schema.addType(inputObjectType("SetComposeQueryInput", {argumentDef("queryType", "SetComposeQueryType!"), argumentDef("value", "String!")}));
    schema.addType(inputObjectType("SetPhotoQueryInput", {argumentDef("queryType", "SetPhotoQueryType!"), argumentDef("value", "TagFilterInput!")}));
    schema.addType(inputObjectType("TagFilterInput", {argumentDef("include", "[String!]"), argumentDef("exclude", "[String!]")}));
    for (const char* node : {"Product", "Image", "ProductVariant", "ProductCluster", "CustomSet", "ProductSet", "SetPhoto", "SetCompose"}) {
        std::string name = node;
        schema.addType(objectType(name + "Connection", {fieldDef("edges", "[" + name + "Edge!]!"), fieldDef("pageInfo", "PageInfo!")}));
        schema.addType(objectType(name + "Edge", {fieldDef("node", name + "!"), fieldDef("cursor", "String!")}));
    }
    // Relay's PageInfo (docs/adr/0085): pages go forward only (first, after), so hasPreviousPage says whether the
    // page starts after the list's first item.
    schema.addType(objectType("PageInfo", {fieldDef("endCursor", "String"), fieldDef("hasNextPage", "Boolean!"),
                                           fieldDef("hasPreviousPage", "Boolean!"), fieldDef("startCursor", "String")}));
    return schema;
}

nlohmann::json optionalString(const std::string& text) { return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text); }

// Cursors are signed only when asked for: the edges' ends come in as callbacks.
class PageInfoResolver : public ObjectResolver {
public:
    using CursorOf = std::function<std::string()>;
    PageInfoResolver(CursorOf startCursor, CursorOf endCursor, bool hasPreviousPage, bool hasNextPage)
        : startCursor_(std::move(startCursor)), endCursor_(std::move(endCursor)), hasPreviousPage_(hasPreviousPage), hasNextPage_(hasNextPage) {}
    std::string_view typeName() const override { return "PageInfo"; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues&) const override {
        if (field == "endCursor") return ResolvedValue::scalar(optionalString(endCursor_()));
        if (field == "hasNextPage") return ResolvedValue::scalar(hasNextPage_);
        if (field == "startCursor") return ResolvedValue::scalar(optionalString(startCursor_()));
        if (field == "hasPreviousPage") return ResolvedValue::scalar(hasPreviousPage_);
        return Error::internal("PageInfo has no field " + field);
    }

private:
    CursorOf startCursor_;
    CursorOf endCursor_;
    bool hasPreviousPage_;
    bool hasNextPage_;
};

// A list's identity for its cursors (graphql/Cursor): its name, and whose it is. The scope's
// text is put together only when a cursor is made or read: most queries ask for none.
struct ListIdentity {
    std::string name;
    int64_t tenant = 0;
    const char* ownerKind = "";  // "Product", "CustomSet", ...
    std::string ownerId;         // a main SKU, a set's id, a filter

    CursorList cursorList() const {
        return {name, "tenant " + std::to_string(tenant) + " " + ownerKind + " " + ownerId};
    }
};

// What a connection's edges share: their type name and the list their cursors belong to.
struct EdgeNames {
    std::string typeName;
    ListIdentity list;
    mutable std::optional<CursorList> cursorList;  // built for the first cursor, kept for the others

    const CursorList& cursors() const {
        if (!cursorList) cursorList = list.cursorList();
        return *cursorList;
    }
};

// An edge signs its cursor only when the query asks for it (or for pageInfo.endCursor):
// most queries never do, and a signature per edge was a large part of a request.
class EdgeResolver : public ObjectResolver {
public:
    EdgeResolver(std::shared_ptr<const EdgeNames> names, ObjectPtr node, const CursorCodec& cursors, size_t index)
        : names_(std::move(names)), node_(std::move(node)), cursors_(cursors), index_(index) {}
    std::string_view typeName() const override { return names_->typeName; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues&) const override {
        if (field == "node") return ResolvedValue::object(node_);
        if (field == "cursor") return ResolvedValue::scalar(cursor());
        return Error::internal("edge has no field " + field);
    }
    std::string cursor() const { return cursors_.encode(index_, names_->cursors()); }

private:
    std::shared_ptr<const EdgeNames> names_;
    ObjectPtr node_;
    const CursorCodec& cursors_;  // the service's, which outlives every request
    size_t index_;
};

class ConnectionResolver : public ObjectResolver {
public:
    ConnectionResolver(std::string typeName, std::shared_ptr<const EdgeNames> edgeNames)
        : typeName_(std::move(typeName)), edgeNames_(std::move(edgeNames)) {}
    std::string_view typeName() const override { return typeName_; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues&) const override {
        if (field == "edges") {
            std::vector<ResolvedValue> items;
            items.reserve(edges_.size());
            for (const auto& edge : edges_) items.push_back(ResolvedValue::object(edge));
            return ResolvedValue::list(std::move(items));
        }
        if (field == "pageInfo") {
            auto edgeCursor = [](std::shared_ptr<EdgeResolver> edge) {
                return [edge = std::move(edge)] { return edge ? edge->cursor() : std::string(); };
            };
            return ResolvedValue::object(std::make_shared<PageInfoResolver>(edgeCursor(edges_.empty() ? nullptr : edges_.front()),
                                                                            edgeCursor(edges_.empty() ? nullptr : edges_.back()),
                                                                            hasPreviousPage_, hasNextPage_));
        }
        return Error::internal(typeName_ + " has no field " + field);
    }
    void addEdge(ObjectPtr node, const CursorCodec& cursors, size_t index) {
        edges_.push_back(std::make_shared<EdgeResolver>(edgeNames_, std::move(node), cursors, index));
    }
    void setHasNextPage(bool hasNextPage) { hasNextPage_ = hasNextPage; }
    void setHasPreviousPage(bool hasPreviousPage) { hasPreviousPage_ = hasPreviousPage; }

private:
    std::string typeName_;
    std::shared_ptr<const EdgeNames> edgeNames_;
    std::vector<std::shared_ptr<EdgeResolver>> edges_;
    bool hasNextPage_ = false;
    bool hasPreviousPage_ = false;
};

// Reads and checks `first` and `after`; both refusals name the argument.
// `first: null` means the list's default, as an absent `first` does.
Result<std::pair<size_t, size_t>> pageWindow(const CursorCodec& cursors, const ArgumentValues& arguments, const ListIdentity& list,
                                             int64_t defaultFirst) {
    auto given = arguments.find("first");
    int64_t first = given == arguments.end() || given->is_null() ? defaultFirst : given->get<int64_t>();
    if (first < 0) return Error::invalidArgument("first: must not be negative");
    if (first > kMaxFirst) return Error::invalidArgument("first: at most " + std::to_string(kMaxFirst) + " items per page");
    size_t offset = 0;
    if (arguments.contains("after") && arguments["after"].is_string()) {
        auto decoded = cursors.decode(arguments["after"].get<std::string>(), list.cursorList());
        if (!decoded) return decoded.error();
        offset = *decoded + 1;
    }
    return std::pair<size_t, size_t>{offset, static_cast<size_t>(first)};
}

// The list `name` of an owner (a product by its main SKU, a set by its id, ...) for the
// request's tenant: its cursors are refused by any other list (graphql/Cursor).
ListIdentity listOf(const ContentContext& context, std::string name, const char* ownerKind, std::string ownerId) {
    return {std::move(name), context.tenant.id, ownerKind, std::move(ownerId)};
}

// One page of `items` (those from `offset` on, at most `first`) as a <Node>Connection,
// each edge's cursor naming its index in the whole list.
template <typename Item, typename MakeNode>
ResolvedValue pageOf(const CursorCodec& cursors, const std::string& nodeType, ListIdentity list, const std::vector<Item>& items, size_t offset,
                     size_t first, MakeNode makeNode) {
    auto connection = std::make_shared<ConnectionResolver>(nodeType + "Connection", std::make_shared<const EdgeNames>(EdgeNames{nodeType + "Edge", std::move(list), std::nullopt}));
    for (size_t i = offset; i < items.size() && i < offset + first; ++i) connection->addEdge(makeNode(items[i]), cursors, i);
    connection->setHasNextPage(items.size() > offset + first);
    connection->setHasPreviousPage(std::min(offset, items.size()) > 0);
    return ResolvedValue::object(std::move(connection));
}

class ImageResolver : public ObjectResolver {
public:
    ImageResolver(std::string url, std::string thumbnailUrl) : url_(std::move(url)), thumbnailUrl_(std::move(thumbnailUrl)) {}
    std::string_view typeName() const override { return "Image"; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues&) const override {
        if (field == "url") return ResolvedValue::borrowed(url_);
        if (field == "thumbnailUrl") return ResolvedValue::scalar(optionalString(thumbnailUrl_));
        return Error::internal("Image has no field " + field);
    }

private:
    std::string url_, thumbnailUrl_;
};

class PriceResolver : public ObjectResolver {
public:
    PriceResolver(int64_t cents, std::string currencyCode) : cents_(cents), currencyCode_(std::move(currencyCode)) {}
    std::string_view typeName() const override { return "Price"; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues&) const override {
        // A decimal string, as the predecessor's API: cents never pass through a float.
        if (field == "amount") {
            std::string fraction = std::to_string(cents_ % 100);
            return ResolvedValue::scalar(std::to_string(cents_ / 100) + "." + (fraction.size() == 1 ? "0" : "") + fraction);
        }
        if (field == "currencyCode") return ResolvedValue::borrowed(currencyCode_);
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
    std::string_view typeName() const override { return "ProductVariant"; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues&) const override {
        if (field == "id") return ResolvedValue::borrowed(variant_.sku);
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

std::vector<std::string> tagsOf(const Product& product) {
    auto found = product.properties.find("tags");
    return found == product.properties.end() ? std::vector<std::string>{} : splitList(found->second, ',');
}

ResolvedValue stringList(const std::vector<std::string>& texts) {
    std::vector<ResolvedValue> items;
    for (const auto& text : texts) items.push_back(ResolvedValue::scalar(text));
    return ResolvedValue::list(std::move(items));
}

ResolvedValue productList(const std::vector<ArticleRef>& articles, const std::shared_ptr<ContentContext>& context);

class ProductResolver : public ObjectResolver {
public:
    ProductResolver(ArticleRef article, std::shared_ptr<ContentContext> context)
        : article_(std::move(article)), context_(std::move(context)) {}
    std::string_view typeName() const override { return "Product"; }

    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues& arguments) const override {
        const Article& article = article_.article();
        const Product& product = article.representative();
        // The article is the snapshot's, which this resolver keeps alive: its text is borrowed.
        if (field == "id") return ResolvedValue::borrowed(article.mainSku);
        if (field == "name") return ResolvedValue::borrowed(product.name);
        if (field == "brand") return product.brand.empty() ? ResolvedValue::null() : ResolvedValue::borrowed(product.brand);
        if (field == "modelId") return product.model.empty() ? ResolvedValue::null() : ResolvedValue::borrowed(product.model);
        if (field == "url") return ResolvedValue::borrowed(product.deeplink);
        // From the feed's `tags` column (comma-separated; any column the feed does not map is a property).
        if (field == "tags") return stringList(tagsOf(product));
        if (field == "images") return images(arguments);
        if (field == "variants") return variants(arguments);
        if (field == "similarProducts") return similarProducts(arguments);
        if (field == "matchingProductClusters") return matchingProductClusters(arguments);
        if (field == "customSets") return customSets(arguments);
        return Error::internal("Product has no field " + field);
    }

private:
    // The article's distinct images: the representative's first, then other variants' own.
    Result<ResolvedValue> images(const ArgumentValues& arguments) const {
        ListIdentity list = listOf(*context_, "images", "Product", article_.article().mainSku);
        auto window = pageWindow(context_->cursors, arguments, list, kDefaultImages);
        if (!window) return window.error();
        const Article& article = article_.article();
        std::vector<const Product*> withImage;
        auto add = [&](const Product& variant) {
            if (variant.image.empty()) return;
            for (const Product* seen : withImage) {
                if (seen->image == variant.image) return;
            }
            withImage.push_back(&variant);
        };
        add(article.representative());
        for (const auto& variant : article.variants) add(variant);
        return pageOf(context_->cursors, "Image", std::move(list), withImage, window->first, window->second, [](const Product* variant) {
            return std::make_shared<ImageResolver>(variant->image, variant->thumbnail);
        });
    }

    // Variants a shopper can buy: available and priced, in SKU order (as the store lists them).
    Result<ResolvedValue> variants(const ArgumentValues& arguments) const {
        ListIdentity list = listOf(*context_, "variants", "Product", article_.article().mainSku);
        auto window = pageWindow(context_->cursors, arguments, list, kDefaultVariants);
        if (!window) return window.error();
        std::vector<const Product*> buyable;
        for (const auto& variant : article_.article().variants) {
            if (variant.available() && variant.sellingPrice()) buyable.push_back(&variant);
        }
        const std::string& currency = context_->tenant.currency;
        return pageOf(context_->cursors, "ProductVariant", std::move(list), buyable, window->first, window->second,
                      [&](const Product* variant) { return std::make_shared<VariantResolver>(article_.shared(), *variant, currency); });
    }

    Result<ResolvedValue> similarProducts(const ArgumentValues& arguments) const {
        ListIdentity list = listOf(*context_, "similarProducts", "Product", article_.article().mainSku);
        auto window = pageWindow(context_->cursors, arguments, list, kDefaultSimilar);
        if (!window) return window.error();
        auto [offset, first] = *window;
        // One more than the page tells whether a next page exists.
        auto similar = context_->recommendations.similarTo(article_, offset + first + 1);
        return pageOf(context_->cursors, "Product", std::move(list), similar, offset, first,
                      [&](const ArticleRef& article) { return std::make_shared<ProductResolver>(article, context_); });
    }

    Result<ResolvedValue> matchingProductClusters(const ArgumentValues& arguments) const;
    Result<ResolvedValue> customSets(const ArgumentValues& arguments) const;

    ArticleRef article_;
    std::shared_ptr<ContentContext> context_;
};

ResolvedValue productList(const std::vector<ArticleRef>& articles, const std::shared_ptr<ContentContext>& context) {
    std::vector<ResolvedValue> items;
    for (const auto& article : articles) items.push_back(ResolvedValue::object(std::make_shared<ProductResolver>(article, context)));
    return ResolvedValue::list(std::move(items));
}

class ClusterResolver : public ObjectResolver {
public:
    ClusterResolver(ArticleRef anchor, ComplementCluster cluster, std::shared_ptr<ContentContext> context)
        : anchor_(std::move(anchor)), cluster_(std::move(cluster)), context_(std::move(context)) {}
    std::string_view typeName() const override { return "ProductCluster"; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues& arguments) const override {
        if (field == "id") return ResolvedValue::scalar(cluster_.id);
        if (field == "name") return ResolvedValue::scalar(cluster_.name);
        if (field == "products") {
            ListIdentity list = listOf(*context_, "clusterProducts", "ProductCluster", cluster_.id);
            auto window = pageWindow(context_->cursors, arguments, list, kDefaultClusterProducts);
            if (!window) return window.error();
            std::vector<ArticleRef> products;
            for (uint32_t index : cluster_.articles) products.push_back({anchor_.snapshot, index});
            return pageOf(context_->cursors, "Product", std::move(list), products, window->first, window->second,
                          [&](const ArticleRef& article) { return std::make_shared<ProductResolver>(article, context_); });
        }
        return Error::internal("ProductCluster has no field " + field);
    }

private:
    ArticleRef anchor_;
    ComplementCluster cluster_;
    std::shared_ptr<ContentContext> context_;
};

// A custom set's products as shown: available ones in the photo's order; one that is
// gone is replaced by its best available alternative not already in the set.
std::vector<ArticleRef> customSetProducts(const std::shared_ptr<const ContentSnapshot>& snapshot, const ResolvedCustomSet& set) {
    std::vector<ArticleRef> products;
    auto taken = [&](uint32_t index) {
        return std::any_of(products.begin(), products.end(), [&](const ArticleRef& ref) { return ref.index == index; }) ||
               std::find(set.articles.begin(), set.articles.end(), index) != set.articles.end();
    };
    for (uint32_t index : set.articles) {
        if (snapshot->available(index)) {
            products.push_back({snapshot, index});
            continue;
        }
        for (uint32_t alternative : snapshot->similar(index, 10)) {
            if (!taken(alternative)) {
                products.push_back({snapshot, alternative});
                break;
            }
        }
    }
    return products;
}

class CustomSetResolver : public ObjectResolver {
public:
    CustomSetResolver(std::shared_ptr<const ContentSnapshot> snapshot, const ResolvedCustomSet& set, std::shared_ptr<ContentContext> context)
        : snapshot_(std::move(snapshot)), set_(set), context_(std::move(context)) {}
    std::string_view typeName() const override { return "CustomSet"; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues& arguments) const override {
        const CustomSet& set = set_.definition;
        if (field == "id") return ResolvedValue::scalar(set.id);
        if (field == "title") return ResolvedValue::scalar(set.title);
        if (field == "description") return ResolvedValue::scalar(optionalString(set.description));
        if (field == "tags") return stringList(set.tags);
        if (field == "images") {
            ListIdentity list = listOf(*context_, "images", "CustomSet", set.id);
            auto window = pageWindow(context_->cursors, arguments, list, kDefaultImages);
            if (!window) return window.error();
            return pageOf(context_->cursors, "Image", std::move(list), set.images, window->first, window->second,
                          [](const std::string& url) { return std::make_shared<ImageResolver>(url, ""); });
        }
        if (field == "products") return productList(customSetProducts(snapshot_, set_), context_);
        return Error::internal("CustomSet has no field " + field);
    }

private:
    std::shared_ptr<const ContentSnapshot> snapshot_;  // keeps set_ alive
    const ResolvedCustomSet& set_;
    std::shared_ptr<ContentContext> context_;
};

Result<ResolvedValue> ProductResolver::matchingProductClusters(const ArgumentValues& arguments) const {
    ListIdentity list = listOf(*context_, "matchingProductClusters", "Product", article_.article().mainSku);
    auto window = pageWindow(context_->cursors, arguments, list, kDefaultClusters);
    if (!window) return window.error();
    // Always the same full list (every position, the longest cluster a page may ask for),
    // so pages and cursors agree.
    auto clusters = context_->recommendations.clusters(article_, kMaxClusters, kMaxFirst);
    return pageOf(context_->cursors, "ProductCluster", std::move(list), clusters, window->first, window->second,
                  [&](const ComplementCluster& cluster) { return std::make_shared<ClusterResolver>(article_, cluster, context_); });
}

Result<ResolvedValue> ProductResolver::customSets(const ArgumentValues& arguments) const {
    ListIdentity list = listOf(*context_, "customSets", "Product", article_.article().mainSku);
    auto window = pageWindow(context_->cursors, arguments, list, kDefaultCustomSets);
    if (!window) return window.error();
    auto sets = context_->recommendations.customSetsOf(article_);
    return pageOf(context_->cursors, "CustomSet", std::move(list), sets, window->first, window->second,
                  [&](const ResolvedCustomSet* set) { return std::make_shared<CustomSetResolver>(article_.snapshot, *set, context_); });
}

// productSets: the simplified shape, custom sets first (curated by the shop), then the
// generated ones.
class ProductSetResolver : public ObjectResolver {
public:
    ProductSetResolver(std::string id, std::string title, std::vector<std::string> tags, std::string imageLink, std::vector<ArticleRef> products,
                       std::shared_ptr<ContentContext> context)
        : id_(std::move(id)), title_(std::move(title)), tags_(std::move(tags)), imageLink_(std::move(imageLink)),
          products_(std::move(products)), context_(std::move(context)) {}
    std::string_view typeName() const override { return "ProductSet"; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues&) const override {
        if (field == "id") return ResolvedValue::scalar(id_);
        if (field == "title") return ResolvedValue::scalar(optionalString(title_));
        if (field == "tags") return stringList(tags_);
        if (field == "imageLink") return ResolvedValue::scalar(optionalString(imageLink_));
        if (field == "products") return productList(products_, context_);
        return Error::internal("ProductSet has no field " + field);
    }

private:
    std::string id_, title_;
    std::vector<std::string> tags_;
    std::string imageLink_;
    std::vector<ArticleRef> products_;
    std::shared_ptr<ContentContext> context_;
};

class SetPhotoResolver : public ObjectResolver {
public:
    SetPhotoResolver(std::shared_ptr<const ContentSnapshot> snapshot, const PhotoSet& set, std::shared_ptr<ContentContext> context)
        : snapshot_(std::move(snapshot)), set_(set), context_(std::move(context)) {}
    std::string_view typeName() const override { return "SetPhoto"; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues& arguments) const override {
        if (field == "id") return ResolvedValue::scalar(set_.id);
        if (field == "title") return ResolvedValue::scalar(set_.title);
        if (field == "tags") return stringList(set_.tags);
        if (field == "images") {
            ListIdentity list = listOf(*context_, "images", "SetPhoto", set_.id);
            auto window = pageWindow(context_->cursors, arguments, list, kDefaultImages);
            if (!window) return window.error();
            return pageOf(context_->cursors, "Image", std::move(list), set_.images, window->first, window->second,
                          [](const std::string& url) { return std::make_shared<ImageResolver>(url, ""); });
        }
        return Error::internal("SetPhoto has no field " + field);
    }

private:
    std::shared_ptr<const ContentSnapshot> snapshot_;  // keeps set_ alive
    const PhotoSet& set_;
    std::shared_ptr<ContentContext> context_;
};

class SetComposeItemResolver : public ObjectResolver {
public:
    SetComposeItemResolver(ArticleRef product, std::vector<ArticleRef> alternatives, std::shared_ptr<ContentContext> context)
        : product_(std::move(product)), alternatives_(std::move(alternatives)), context_(std::move(context)) {}
    std::string_view typeName() const override { return "SetComposeItem"; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues&) const override {
        if (field == "product") return ResolvedValue::object(std::make_shared<ProductResolver>(product_, context_));
        if (field == "alternatives") return productList(alternatives_, context_);
        return Error::internal("SetComposeItem has no field " + field);
    }

private:
    ArticleRef product_;
    std::vector<ArticleRef> alternatives_;
    std::shared_ptr<ContentContext> context_;
};

class SetComposeResolver : public ObjectResolver {
public:
    SetComposeResolver(std::string id, std::vector<ObjectPtr> items) : id_(std::move(id)), items_(std::move(items)) {}
    std::string_view typeName() const override { return "SetCompose"; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues&) const override {
        if (field == "id") return ResolvedValue::scalar(id_);
        if (field == "items") {
            std::vector<ResolvedValue> items;
            for (const auto& item : items_) items.push_back(ResolvedValue::object(item));
            return ResolvedValue::list(std::move(items));
        }
        return Error::internal("SetCompose has no field " + field);
    }

private:
    std::string id_;
    std::vector<ObjectPtr> items_;
};

bool hasTag(const std::vector<std::string>& tags, const std::string& wanted) {
    std::string lower = toLower(wanted);
    return std::any_of(tags.begin(), tags.end(), [&](const std::string& tag) { return toLower(tag) == lower; });
}

std::vector<std::string> stringsOf(const nlohmann::json& value) {
    std::vector<std::string> out;
    if (value.is_array()) {
        for (const auto& item : value) {
            if (item.is_string()) out.push_back(item.get<std::string>());
        }
    }
    return out;
}

class QueryResolver : public ObjectResolver {
public:
    explicit QueryResolver(std::shared_ptr<ContentContext> context) : context_(std::move(context)) {}
    std::string_view typeName() const override { return "Query"; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues& arguments) const override {
        if (field == "product") {
            auto article = find(arguments["id"]);
            if (!article) return article.error();
            if (!*article) return ResolvedValue::null();
            return ResolvedValue::object(std::make_shared<ProductResolver>(**article, context_));
        }
        if (field == "productSets") return productSets(arguments);
        if (field == "setPhoto") return setPhoto(arguments);
        if (field == "customSet") return customSet(arguments);
        if (field == "setCompose") return setCompose(arguments);
        return Error::internal("Query has no field " + field);
    }

private:
    // An available article by SKU or main SKU (ids of other types are read as text, as graphql-js coerces ID).
    Result<std::optional<ArticleRef>> find(const nlohmann::json& id) const {
        std::string text = id.is_string() ? id.get<std::string>() : id.dump();
        auto article = context_->recommendations.findArticle(context_->tenant.id, text);
        if (!article) return article.error();
        if (!*article || !(*article)->snapshot->available((*article)->index)) return std::optional<ArticleRef>{};
        return article;
    }

    // The sets' lists belong to the product the input names (whichever of its SKUs names it);
    // an unknown one has an empty list of its own.
    ListIdentity anchorList(std::string name, const std::optional<ArticleRef>& article, const nlohmann::json& value) const {
        if (article) return listOf(*context_, std::move(name), "Product", article->article().mainSku);
        return listOf(*context_, std::move(name), "unknown product", value.is_string() ? value.get<std::string>() : value.dump());
    }

    Result<ResolvedValue> productSets(const ArgumentValues& arguments) const {
        auto article = find(arguments["input"]["value"]);
        if (!article) return article.error();
        ListIdentity list = anchorList("productSets", *article, arguments["input"]["value"]);
        auto window = pageWindow(context_->cursors, arguments, list, kDefaultProductSets);
        if (!window) return window.error();
        std::vector<std::shared_ptr<ProductSetResolver>> sets;
        if (*article) {  // an unknown product has no sets: `edges: []` (v1.0.1), never null
            const ArticleRef& anchor = **article;
            for (const auto* set : context_->recommendations.customSetsOf(anchor)) {
                const CustomSet& definition = set->definition;
                sets.push_back(std::make_shared<ProductSetResolver>(definition.id, definition.title, definition.tags,
                                                                    definition.images.empty() ? "" : definition.images.front(),
                                                                    customSetProducts(anchor.snapshot, *set), context_));
            }
            const std::string& image = anchor.article().representative().image;
            for (auto& set : context_->recommendations.generatedSets(anchor, kMaxGeneratedSets)) {
                sets.push_back(std::make_shared<ProductSetResolver>(set.id, "", set.tags, image, std::move(set.products), context_));
            }
        }
        return pageOf(context_->cursors, "ProductSet", std::move(list), sets, window->first, window->second, [](const auto& set) { return set; });
    }

    Result<ResolvedValue> setPhoto(const ArgumentValues& arguments) const {
        const auto& filter = arguments["input"]["value"];
        auto include = stringsOf(filter.value("include", nlohmann::json()));
        auto exclude = stringsOf(filter.value("exclude", nlohmann::json()));
        ListIdentity list = listOf(*context_, "setPhoto", "photo sets", filterKey(include, exclude));
        auto window = pageWindow(context_->cursors, arguments, list, kDefaultSetPhoto);
        if (!window) return window.error();
        auto snapshot = context_->recommendations.snapshot(context_->tenant.id);
        if (!snapshot) return snapshot.error();
        // Every included tag and none of the excluded ones (case-insensitive); see docs/adr/0015.
        std::vector<const PhotoSet*> matching;
        for (const auto& set : (*snapshot)->photoSets()) {
            bool all = std::all_of(include.begin(), include.end(), [&](const std::string& tag) { return hasTag(set.tags, tag); });
            bool none = std::none_of(exclude.begin(), exclude.end(), [&](const std::string& tag) { return hasTag(set.tags, tag); });
            if (all && none) matching.push_back(&set);
        }
        auto shared = *snapshot;
        return pageOf(context_->cursors, "SetPhoto", std::move(list), matching, window->first, window->second,
                      [&](const PhotoSet* set) { return std::make_shared<SetPhotoResolver>(shared, *set, context_); });
    }

    // A tag filter as the list it chooses: tags compare case-insensitively, and neither their
    // order nor repeats change the list.
    static std::string filterKey(std::vector<std::string> include, std::vector<std::string> exclude) {
        auto canonical = [](std::vector<std::string>& tags) {
            for (auto& tag : tags) tag = toLower(tag);
            std::sort(tags.begin(), tags.end());
            tags.erase(std::unique(tags.begin(), tags.end()), tags.end());
            return nlohmann::json(tags);
        };
        return nlohmann::json{{"include", canonical(include)}, {"exclude", canonical(exclude)}}.dump();
    }

    Result<ResolvedValue> customSet(const ArgumentValues& arguments) const {
        const auto& id = arguments["id"];
        std::string text = id.is_string() ? id.get<std::string>() : id.dump();
        auto snapshot = context_->recommendations.snapshot(context_->tenant.id);
        if (!snapshot) return snapshot.error();
        const ResolvedCustomSet* set = (*snapshot)->customSet(text);
        // A set whose products are all gone is not shown.
        if (!set || !customSetShowable(**snapshot, *set)) return ResolvedValue::null();
        return ResolvedValue::object(std::make_shared<CustomSetResolver>(*snapshot, *set, context_));
    }

    Result<ResolvedValue> setCompose(const ArgumentValues& arguments) const {
        auto article = find(arguments["input"]["value"]);
        if (!article) return article.error();
        ListIdentity list = anchorList("setCompose", *article, arguments["input"]["value"]);
        auto window = pageWindow(context_->cursors, arguments, list, kDefaultSetCompose);
        if (!window) return window.error();
        std::vector<std::shared_ptr<SetComposeResolver>> sets;
        if (*article) {
            const ArticleRef& anchor = **article;
            auto clusters = context_->recommendations.clusters(anchor, kMaxClusters, RecommendationService::kClusterSize + kMaxGeneratedSets);
            for (size_t n = 0; n < kMaxGeneratedSets && clusters.size() >= 2; ++n) {
                std::vector<ObjectPtr> items;
                for (const auto& cluster : clusters) {
                    if (n >= cluster.articles.size()) continue;
                    std::vector<ArticleRef> alternatives;
                    for (size_t i = 0; i < cluster.articles.size() && alternatives.size() < RecommendationService::kClusterSize; ++i) {
                        if (i != n) alternatives.push_back({anchor.snapshot, cluster.articles[i]});
                    }
                    items.push_back(std::make_shared<SetComposeItemResolver>(ArticleRef{anchor.snapshot, cluster.articles[n]},
                                                                             std::move(alternatives), context_));
                }
                if (items.size() < 2) break;
                sets.push_back(std::make_shared<SetComposeResolver>(anchor.article().mainSku + "#generated#" + std::to_string(n + 1), std::move(items)));
            }
        }
        return pageOf(context_->cursors, "SetCompose", std::move(list), sets, window->first, window->second, [](const auto& set) { return set; });
    }

    std::shared_ptr<ContentContext> context_;
};

class UnauthorizedRoot : public ObjectResolver {
public:
    std::string_view typeName() const override { return "Query"; }
    Result<ResolvedValue> resolve(const std::string& field, const ArgumentValues&) const override {
        return Error::unauthenticated("Not Authorized to access " + field + " on type Query");
    }
};

}  // namespace

std::string contentSchemaDescription() {
    return "svc content API, version " + std::string(kContentApiVersion) +
           " (the interface specification's 2.2.0 and svc's additions). Versions and their changes: docs/api/CHANGELOG.md.";
}

const Schema& contentSchema() {
    static const Schema schema = buildContentSchema();
    return schema;
}

ObjectPtr makeQueryRoot(std::shared_ptr<ContentContext> context) { return std::make_shared<QueryResolver>(std::move(context)); }

ObjectPtr makeUnauthorizedRoot() { return std::make_shared<UnauthorizedRoot>(); }

}  // namespace svc::graphql
