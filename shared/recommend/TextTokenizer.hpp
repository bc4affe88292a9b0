#pragma once
// Turns product text (names, descriptions that may hold HTML, category levels) into
// comparable tokens: lower-case, split on anything but letters and digits, HTML tags
// skipped, a trailing plural "s" dropped, and a hyphenated word also kept joined
// ("T-Shirts" gives "t", "shirt" and "tshirt") so feeds that spell a kind either way meet.
#include <string>
#include <string_view>
#include <vector>

namespace svc {

class TextTokenizer {
public:
    // Appends the tokens of `text` to `tokens` (stop words and single letters dropped).
    static void tokenize(std::string_view text, std::vector<std::string>& tokens);
    static std::vector<std::string> tokens(std::string_view text);
    // One normalised key for a whole phrase: tokens joined without separators
    // ("Casual Shoes" and "casual-shoe" both give "casualshoe").
    static std::string key(std::string_view phrase);
};

}  // namespace svc
