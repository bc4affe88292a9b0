// The SDK reads the content endpoint's JSON and the server reads GraphQL request
// bodies: both must refuse any malformed input with an error value.
#include <cstdint>
#include <string>

#include "graphql/GraphqlService.hpp"
#include "widget/WidgetContent.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    auto content = svc::ContentResponse::fromJson(text);
    if (content) {
        // What parses must survive a round trip unchanged.
        auto again = svc::ContentResponse::fromJson(content->toJson());
        if (!again || again->toJson() != content->toJson()) __builtin_trap();
    }
    (void)svc::graphql::GraphqlService::parseRequestBody(text);
    return 0;
}
