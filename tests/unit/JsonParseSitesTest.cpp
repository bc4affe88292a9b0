// Closes the class of issue 18's deep-JSON crash (docs/adr/0054): svc's own code reads JSON only
// through text/BoundedJson (or the SDK's JsonReader, which applies the same limits). This scans the
// source tree for every other way into nlohmann's parsers and fails naming file and line.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

// Each entry: a file that may call one of nlohmann's parsers, and why that is safe.
const std::map<std::string, std::string> kAllowed{
    {"shared/text/BoundedJson.cpp", "the reader itself: its depth and size checks run before nlohmann::parse"},
    {"shared/tracking/EventParser.cpp",
     "sax_parse only, which builds no value: the events' structure check, with its own depth limit (EventLimits::maxDepth, 16), "
     "runs before BoundedJson reads the body"},
};

// nlohmann's entry points that read text or binary formats into values, by any alias of basic_json
// (json, ordered_json, Json, ...), and the _json literal.
// The alias is json or Json alone or after an underscore (ordered_json, basic_json): BoundedJson and
// JsonReader are not nlohmann's.
const std::regex kParseCall(R"((^|[^\w])(\w+_)?[Jj]son\s*::\s*(parse|sax_parse|accept|from_cbor|from_msgpack|from_ubjson|from_bjdata|from_bson)\s*\()"
                            R"(|"\s*_json\b|>>\s*(\w+_)?[Jj]son\b)");

std::vector<std::string> offendingLines(const std::filesystem::path& root) {
    std::vector<std::string> found;
    for (const char* folder : {"shared", "native-server", "wasm-sdk"}) {
        for (const auto& entry : std::filesystem::recursive_directory_iterator(root / folder)) {
            auto extension = entry.path().extension().string();
            if (!entry.is_regular_file() || (extension != ".cpp" && extension != ".hpp" && extension != ".h")) continue;
            std::string relative = std::filesystem::relative(entry.path(), root).generic_string();
            if (kAllowed.count(relative)) continue;
            std::ifstream in(entry.path());
            std::string line;
            for (size_t number = 1; std::getline(in, line); ++number) {
                if (std::regex_search(line, kParseCall)) found.push_back(relative + ":" + std::to_string(number) + ": " + line);
            }
        }
    }
    return found;
}

}  // namespace

TEST_CASE("JSON parse sites: nothing outside BoundedJson (and the allow-list) calls nlohmann's parsers") {
    std::filesystem::path root = SVC_SOURCE_DIR;
    auto found = offendingLines(root);
    std::ostringstream report;
    for (const auto& line : found) report << "\n  " << line;
    INFO("use svc::BoundedJson::parse or parseOrdered instead of:" << report.str());
    CHECK(found.empty());
    // The allow-list stays true: each entry still exists (a moved file must not keep a stale exemption).
    for (const auto& [file, reason] : kAllowed) {
        CAPTURE(file);
        CHECK(std::filesystem::exists(root / file));
    }
}

TEST_CASE("JSON parse sites: the scan recognises every spelling it forbids") {
    const std::vector<std::string> forbidden{
        "auto j = nlohmann::json::parse(body, nullptr, false);",
        "auto j = json::parse(body);",
        "nlohmann::ordered_json::parse(text)",
        "Json json = Json::parse(body, nullptr, false);",
        "(void)Json::sax_parse(body, &check);",
        "if (json::accept(text)) {}",
        "auto v = json::from_cbor(bytes);",
        "auto j = R\"({\"a\":1})\"_json;",
        "in >> json;",
    };
    for (const auto& line : forbidden) {
        CAPTURE(line);
        CHECK(std::regex_search(line, kParseCall));
    }
    const std::vector<std::string> fine{
        "auto read = BoundedJson::parse(body, \"body\");",
        "auto read = BoundedJson::parseOrdered(body, \"file\");",
        "auto body = JsonReader::parse(text);",
        "json.dump()",
    };
    for (const auto& line : fine) {
        CAPTURE(line);
        CHECK_FALSE(std::regex_search(line, kParseCall));
    }
}
