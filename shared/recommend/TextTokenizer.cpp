#include "recommend/TextTokenizer.hpp"

#include <array>
#include <cctype>

namespace svc {
namespace {

constexpr std::array<std::string_view, 24> kStopWords{
    "and", "with", "for", "the", "of", "in", "on", "to", "by", "from", "an", "at",
    "und", "mit", "fur", "für", "der", "die", "das", "den", "im", "aus", "ein", "eine"};

bool isStopWord(std::string_view token) {
    for (auto word : kStopWords) {
        if (word == token) return true;
    }
    return false;
}

// Bytes of multi-byte UTF-8 characters count as letters: "größe" stays one token.
bool isWordByte(unsigned char c) { return std::isalnum(c) || c >= 0x80; }

void singular(std::string& token) {
    // "shoes" -> "shoe", "jeans" -> "jean", but "dress" and "glass" stay.
    if (token.size() > 3 && token.back() == 's' && token[token.size() - 2] != 's') token.pop_back();
}

void lowerAscii(std::string& token) {
    for (auto& c : token) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

}  // namespace

void TextTokenizer::tokenize(std::string_view text, std::vector<std::string>& tokens) {
    std::string current;
    std::string joined;  // the current hyphenated compound, e.g. "t" + "shirts"
    bool hyphenated = false;
    auto finishWord = [&] {
        if (current.empty()) return;
        lowerAscii(current);
        joined += current;
        singular(current);
        if (current.size() > 1 && !isStopWord(current)) tokens.push_back(current);
        current.clear();
    };
    auto finishCompound = [&] {
        finishWord();
        if (hyphenated && joined.size() > 1) {
            singular(joined);
            tokens.push_back(joined);
        }
        joined.clear();
        hyphenated = false;
    };
    for (size_t i = 0; i < text.size(); ++i) {
        auto c = static_cast<unsigned char>(text[i]);
        if (c == '<') {  // an HTML tag in a description: skip it whole
            size_t end = text.find('>', i);
            if (end != std::string_view::npos) {
                finishCompound();
                i = end;
                continue;
            }
        }
        if (c == '&') {  // an HTML entity (&amp; &nbsp;) separates words
            size_t end = text.find(';', i);
            if (end != std::string_view::npos && end - i <= 8) {
                finishCompound();
                i = end;
                continue;
            }
        }
        if (isWordByte(c)) {
            current += static_cast<char>(c);
        } else if (c == '-' && !current.empty() && i + 1 < text.size() && isWordByte(static_cast<unsigned char>(text[i + 1]))) {
            finishWord();
            hyphenated = true;
        } else {
            finishCompound();
        }
    }
    finishCompound();
}

std::vector<std::string> TextTokenizer::tokens(std::string_view text) {
    std::vector<std::string> out;
    tokenize(text, out);
    return out;
}

std::string TextTokenizer::key(std::string_view phrase) {
    std::string out;
    for (char c : phrase) {
        auto byte = static_cast<unsigned char>(c);
        if (isWordByte(byte)) out += static_cast<char>(std::tolower(byte));
    }
    singular(out);
    return out;
}

}  // namespace svc
