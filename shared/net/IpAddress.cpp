#include "net/IpAddress.hpp"

#include <vector>

namespace svc {
namespace {

std::optional<std::array<uint8_t, 4>> parseV4(std::string_view text) {
    std::array<uint8_t, 4> out{};
    size_t part = 0;
    size_t position = 0;
    while (part < 4) {
        size_t start = position;
        int value = 0;
        while (position < text.size() && text[position] >= '0' && text[position] <= '9' && position - start < 3) {
            value = value * 10 + (text[position] - '0');
            ++position;
        }
        size_t digits = position - start;
        if (digits == 0 || value > 255 || (digits > 1 && text[start] == '0')) return std::nullopt;
        out[part++] = static_cast<uint8_t>(value);
        if (part < 4) {
            if (position >= text.size() || text[position] != '.') return std::nullopt;
            ++position;
        }
    }
    if (position != text.size()) return std::nullopt;
    return out;
}

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Groups of one side of "::"; an IPv4 tail counts as two groups.
bool parseGroups(std::string_view text, bool allowV4Tail, std::vector<uint16_t>& groups) {
    if (text.empty()) return true;
    size_t start = 0;
    while (true) {
        size_t colon = text.find(':', start);
        std::string_view group = text.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start);
        if (colon == std::string_view::npos && allowV4Tail && group.find('.') != std::string_view::npos) {
            auto v4 = parseV4(group);
            if (!v4) return false;
            groups.push_back(static_cast<uint16_t>((*v4)[0] << 8 | (*v4)[1]));
            groups.push_back(static_cast<uint16_t>((*v4)[2] << 8 | (*v4)[3]));
            return true;
        }
        if (group.empty() || group.size() > 4) return false;
        int value = 0;
        for (char c : group) {
            int digit = hexValue(c);
            if (digit < 0) return false;
            value = value * 16 + digit;
        }
        groups.push_back(static_cast<uint16_t>(value));
        if (colon == std::string_view::npos) return true;
        start = colon + 1;
    }
}

std::optional<std::array<uint8_t, 16>> parseV6(std::string_view text) {
    if (text.size() >= 2 && text.front() == '[' && text.back() == ']') text = text.substr(1, text.size() - 2);
    if (text.empty() || text.size() > 45) return std::nullopt;
    std::vector<uint16_t> head, tail;
    size_t gap = text.find("::");
    if (gap == std::string_view::npos) {
        if (!parseGroups(text, true, head) || head.size() != 8) return std::nullopt;
    } else {
        if (text.find("::", gap + 1) != std::string_view::npos) return std::nullopt;
        std::string_view before = text.substr(0, gap);
        std::string_view after = text.substr(gap + 2);
        if (!parseGroups(before, false, head) || !parseGroups(after, true, tail)) return std::nullopt;
        if (head.size() + tail.size() > 7) return std::nullopt;
    }
    std::array<uint8_t, 16> out{};
    for (size_t i = 0; i < head.size(); ++i) {
        out[2 * i] = static_cast<uint8_t>(head[i] >> 8);
        out[2 * i + 1] = static_cast<uint8_t>(head[i] & 0xff);
    }
    size_t offset = 8 - tail.size();
    for (size_t i = 0; i < tail.size(); ++i) {
        out[2 * (offset + i)] = static_cast<uint8_t>(tail[i] >> 8);
        out[2 * (offset + i) + 1] = static_cast<uint8_t>(tail[i] & 0xff);
    }
    return out;
}

}  // namespace

IpAddress IpAddress::v4(std::array<uint8_t, 4> bytes) {
    IpAddress address;
    address.v4_ = true;
    for (size_t i = 0; i < 4; ++i) address.bytes_[i] = bytes[i];
    return address;
}

IpAddress IpAddress::v6(std::array<uint8_t, 16> bytes) {
    IpAddress address;
    address.v4_ = false;
    address.bytes_ = bytes;
    return address;
}

std::optional<IpAddress> IpAddress::parse(std::string_view text) {
    if (text.find(':') == std::string_view::npos) {
        auto v4bytes = parseV4(text);
        if (!v4bytes) return std::nullopt;
        return v4(*v4bytes);
    }
    auto v6bytes = parseV6(text);
    if (!v6bytes) return std::nullopt;
    return v6(*v6bytes);
}

std::optional<IpAddress> IpAddress::embeddedV4() const {
    if (v4_) return std::nullopt;
    auto startsWith = [&](std::initializer_list<uint8_t> prefix) {
        size_t i = 0;
        for (uint8_t byte : prefix) {
            if (bytes_[i++] != byte) return false;
        }
        return true;
    };
    if (startsWith({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff}) || startsWith({0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0})) {
        return v4({bytes_[12], bytes_[13], bytes_[14], bytes_[15]});
    }
    if (startsWith({0x20, 0x02})) return v4({bytes_[2], bytes_[3], bytes_[4], bytes_[5]});
    return std::nullopt;
}

std::string IpAddress::toString() const {
    if (v4_) {
        return std::to_string(bytes_[0]) + "." + std::to_string(bytes_[1]) + "." + std::to_string(bytes_[2]) + "." +
               std::to_string(bytes_[3]);
    }
    // RFC 5952: an IPv4-mapped address ends in its dotted quad, so messages show the real target.
    if (auto carried = embeddedV4(); carried && bytes_[10] == 0xff && bytes_[0] == 0) return "::ffff:" + carried->toString();
    // Lower case, the longest run (2+) of zero groups shortened to "::".
    uint16_t groups[8];
    for (int i = 0; i < 8; ++i) groups[i] = static_cast<uint16_t>(bytes_[2 * i] << 8 | bytes_[2 * i + 1]);
    int bestStart = -1, bestLength = 1;
    for (int i = 0; i < 8;) {
        if (groups[i] != 0) {
            ++i;
            continue;
        }
        int j = i;
        while (j < 8 && groups[j] == 0) ++j;
        if (j - i > bestLength) {
            bestStart = i;
            bestLength = j - i;
        }
        i = j;
    }
    static const char* kHex = "0123456789abcdef";
    std::string out;
    for (int i = 0; i < 8; ++i) {
        if (i == bestStart) {
            out += "::";
            i += bestLength - 1;
            continue;
        }
        if (!out.empty() && out.back() != ':') out += ':';
        std::string group;
        uint16_t value = groups[i];
        do {
            group.insert(group.begin(), kHex[value & 0xf]);
            value = static_cast<uint16_t>(value >> 4);
        } while (value);
        out += group;
    }
    return out;
}

}  // namespace svc
