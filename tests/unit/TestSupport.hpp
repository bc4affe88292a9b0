#pragma once
// Shared helpers of the unit tests: readable doctest output for standard types.
#include <doctest/doctest.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

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
