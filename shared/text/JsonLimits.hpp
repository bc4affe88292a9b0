#pragma once
// The one policy for JSON that comes from outside svc (docs/adr/0054): how deep and how large a
// text may be. Both readers apply it: BoundedJson (nlohmann values, the server and the core) and
// JsonReader (the SDK's own small reader). Every walk over a parsed value (copies, dump,
// comparisons, validators) is recursive, so the depth bound is what keeps a body from
// exhausting the stack; the size bound keeps the value tree's memory in proportion.
#include <cstddef>

namespace svc {

struct JsonLimits {
    // Containers inside containers. Real bodies nest a handful of levels (a GraphQL variable
    // of input objects, a set file, a plugin's product); 64 is far above them and far below
    // what any stack (the Wasm SDK's 64 KiB included) needs for a recursive walk.
    static constexpr size_t kDefaultMaxDepth = 64;
    // The largest request body the server reads whole (ApiServerOptions::maxRequestBytes).
    static constexpr size_t kDefaultMaxBytes = size_t{8} << 20;

    size_t maxDepth = kDefaultMaxDepth;
    size_t maxBytes = kDefaultMaxBytes;
};

}  // namespace svc
