#include "store/ClaimKeys.hpp"

#include <sodium.h>

#include <array>

namespace svc {
namespace {

// 128 bits: a short key for the unique index, and no two different claims share one in practice.
std::string digest(const std::string& text) {
    static const bool ready = sodium_init() >= 0;
    (void)ready;
    std::array<unsigned char, 16> bytes{};
    crypto_generichash(bytes.data(), bytes.size(), reinterpret_cast<const unsigned char*>(text.data()), text.size(), nullptr, 0);
    std::string hex(bytes.size() * 2 + 1, '\0');
    sodium_bin2hex(hex.data(), hex.size(), bytes.data(), bytes.size());
    hex.pop_back();
    return hex;
}

}  // namespace

std::string ClaimKeys::browser(const std::optional<std::string>& cid, const std::vector<OrderLine>& lines) {
    return digest("browser\n" + claimContent(cid, lines));
}

std::string ClaimKeys::shopWord(const OrderConfirmation& word) {
    std::string text = "shop\n" + std::string(claimSourceName(word.source)) + "\n" + (word.claim ? std::to_string(*word.claim) : "-") +
                       "\n" + claimContent(word.cid, word.lines);
    return digest(text);
}

}  // namespace svc
