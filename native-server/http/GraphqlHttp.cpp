#include "http/GraphqlHttp.hpp"

#include <cstdlib>

#include "graphql/Sha256.hpp"
#include "text/StringUtil.hpp"

namespace svc {

std::optional<GraphqlMediaType> negotiateGraphqlMediaType(const std::string& accept) {
    if (trim(accept).empty()) return GraphqlMediaType::Json;
    double jsonQuality = -1, graphqlQuality = -1;
    for (const auto& range : splitList(accept, ',')) {
        auto parameters = splitList(range, ';');
        if (parameters.empty()) continue;
        std::string type = toLower(parameters.front());
        double quality = 1;
        for (size_t i = 1; i < parameters.size(); ++i) {
            std::string parameter = toLower(parameters[i]);
            if (parameter.rfind("q=", 0) == 0) quality = std::strtod(parameter.c_str() + 2, nullptr);
        }
        if (quality <= 0) continue;
        if (type == kGraphqlResponseJson) graphqlQuality = std::max(graphqlQuality, quality);
        else if (type == "application/json" || type == "application/*" || type == "*/*") jsonQuality = std::max(jsonQuality, quality);
    }
    if (graphqlQuality < 0 && jsonQuality < 0) return std::nullopt;
    return graphqlQuality >= jsonQuality ? GraphqlMediaType::GraphqlResponseJson : GraphqlMediaType::Json;
}

std::string graphqlContentType(GraphqlMediaType mediaType) {
    return std::string(mediaType == GraphqlMediaType::GraphqlResponseJson ? kGraphqlResponseJson : "application/json") + "; charset=utf-8";
}

bool isJsonContentType(const std::string& contentType) {
    auto parameters = splitList(contentType, ';');
    if (parameters.empty() || toLower(parameters.front()) != "application/json") return false;
    for (size_t i = 1; i < parameters.size(); ++i) {
        std::string parameter = toLower(parameters[i]);
        if (parameter.rfind("charset=", 0) == 0 && parameter != "charset=utf-8" && parameter != "charset=\"utf-8\"") return false;
    }
    return true;
}

int graphqlStatusFor(graphql::GraphqlResponse::Outcome outcome, GraphqlMediaType mediaType) {
    using Outcome = graphql::GraphqlResponse::Outcome;
    switch (outcome) {
        case Outcome::Executed:
        case Outcome::Stopped: return 200;  // `data` is there (null): the specification's 2xx
        case Outcome::NotAQuery: return 405;
        case Outcome::RequestError:
        case Outcome::InvalidDocument: return mediaType == GraphqlMediaType::Json ? 200 : 400;
    }
    return 500;
}

std::string graphqlBodyFor(const graphql::GraphqlResponse& response, GraphqlMediaType mediaType) {
    using Outcome = graphql::GraphqlResponse::Outcome;
    bool ran = response.outcome == Outcome::Executed || response.outcome == Outcome::Stopped;
    if (mediaType == GraphqlMediaType::GraphqlResponseJson && !ran) {
        // Requests that did not execute have no `data` under this media type (rare: parse once more).
        auto body = response.json();
        body.erase("data");
        return body.dump();
    }
    return response.body;
}

GraphqlCaching graphqlCachingFor(const graphql::GraphqlRequest& request, const graphql::GraphqlResponse& response, bool authorised,
                                 const std::string& body) {
    bool stable = request.queriesOnly && !request.persistedQueryHash.empty() && authorised &&
                  response.outcome == graphql::GraphqlResponse::Outcome::Executed;
    if (!stable) return {};
    std::string etag(1, '"');
    etag.append(graphql::sha256Hex(body), 0, 32).push_back('"');
    return {"public, max-age=60", etag};
}

}  // namespace svc
