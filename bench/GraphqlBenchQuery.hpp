#pragma once
// The GraphQL benchmarks' query (issue 4): the product page's similar products, the product id as a variable, one
// document for every request. bench-graphql and bench-cluster post it with bench/graphql/post.lua.
namespace bench {

inline constexpr const char* kGraphqlBenchQuery =
    "query Bench($id: ID!) { product(id: $id) { similarProducts(first: 12) { edges { node { id name brand url "
    "images { edges { node { url } } } variants { edges { node { price { amount currencyCode } } } } } } } } }";

}  // namespace bench
