// docs/ARCHITECTURE.md is the code map: every folder of shared/ and native-server/ and every
// class with a header of its own must be named in it, so the map cannot fall behind the code
// as it did when rows were appended per feature (issue 23).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::string readMap() {
    std::ifstream file(fs::path(SVC_SOURCE_DIR) / "docs" / "ARCHITECTURE.md");
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

// A name counts as mentioned when it appears as a whole word (not inside a longer name).
bool mentions(const std::string& map, const std::string& name) {
    return std::regex_search(map, std::regex("(^|[^A-Za-z0-9_])" + name + "([^A-Za-z0-9_]|$)"));
}

bool generated(const fs::path& path) {
    for (const auto& part : path) {
        if (part == "node_modules") return true;
    }
    return false;
}

}  // namespace

TEST_CASE("docs/ARCHITECTURE.md names every folder and every class of shared/ and native-server/") {
    const std::string map = readMap();
    REQUIRE_MESSAGE(!map.empty(), "docs/ARCHITECTURE.md is missing or empty");
    std::vector<std::string> missing;
    for (const char* root : {"shared", "native-server"}) {
        const fs::path base = fs::path(SVC_SOURCE_DIR) / root;
        for (const auto& entry : fs::recursive_directory_iterator(base)) {
            if (generated(entry.path())) continue;
            const std::string relative = fs::relative(entry.path(), base).generic_string();
            if (entry.is_directory()) {
                if (relative.find('/') != std::string::npos) continue;  // folders one level down
                if (map.find("`" + relative + "/`") == std::string::npos) missing.push_back(std::string(root) + "/" + relative + "/");
            } else if (entry.path().extension() == ".hpp") {
                const std::string name = entry.path().stem().string();
                if (!mentions(map, name)) missing.push_back(std::string(root) + "/" + relative);
            }
        }
    }
    std::sort(missing.begin(), missing.end());
    std::string list;
    for (const auto& name : missing) list += "\n  " + name;
    CHECK_MESSAGE(missing.empty(), "not named in docs/ARCHITECTURE.md:" << list);
}
