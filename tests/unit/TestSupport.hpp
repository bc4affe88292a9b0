#pragma once
// Shared helpers of the unit tests: readable doctest output for standard types.
#include <doctest/doctest.h>

#include <cstdio>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "graphql/Cursor.hpp"

namespace doctest {

template <typename T>
struct StringMaker<std::optional<T>> {
    static String convert(const std::optional<T>& value) {
        if (!value) return "nullopt";
        return toString(*value);
    }
};

template <typename T>
struct StringMaker<std::vector<T>> {
    static String convert(const std::vector<T>& values) {
        String out = "{";
        for (size_t i = 0; i < values.size(); ++i) {
            if (i) out += ", ";
            out += toString(values[i]);
        }
        return out + "}";
    }
};

}  // namespace doctest

namespace svc::testing {

// Pagination cursors for unit tests: a keyed tag from std::hash (the server uses
// HMAC-SHA-256, security/CursorTags; its cursors are tested through HTTP).
inline const svc::graphql::CursorCodec& testCursors() {
    static const svc::graphql::CursorCodec codec([](std::string_view payload) {
        char hex[17];
        std::snprintf(hex, sizeof hex, "%016zx", std::hash<std::string>{}("unit-test-key:" + std::string(payload)));
        return std::string(hex);
    });
    return codec;
}

}  // namespace svc::testing
