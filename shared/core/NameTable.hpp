#pragma once
// The one way svc maps enum values to their wire names and back (widget types,
// touchpoints, import statuses, row error kinds). Each table lists every value.
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace svc {

template <typename Enum, size_t N>
class NameTable {
public:
    constexpr explicit NameTable(std::array<std::pair<std::string_view, Enum>, N> entries) : entries_(entries) {}

    std::optional<Enum> parse(std::string_view text) const {
        for (const auto& [name, value] : entries_) {
            if (name == text) return value;
        }
        return std::nullopt;
    }

    std::string_view name(Enum value) const {
        for (const auto& [name, candidate] : entries_) {
            if (candidate == value) return name;
        }
        return {};  // unreachable: every value is listed
    }

private:
    std::array<std::pair<std::string_view, Enum>, N> entries_;
};

}  // namespace svc
