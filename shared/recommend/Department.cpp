#include "recommend/Department.hpp"

#include <vector>
#include <string>

#include "recommend/TextTokenizer.hpp"

namespace svc {

Department departmentFromToken(std::string_view token) {
    // Tokens arrive singularised ("women" -> "women", "girls" -> "girl").
    if (token == "men" || token == "man" || token == "male" || token == "herren" || token == "herr" || token == "mann" ||
        token == "gent")
        return Department::Men;
    if (token == "women" || token == "woman" || token == "female" || token == "damen" || token == "dame" || token == "frau" ||
        token == "ladie" || token == "lady")
        return Department::Women;
    if (token == "unisex") return Department::Unisex;
    if (token == "boy" || token == "jungen" || token == "junge") return Department::Boys;
    if (token == "girl" || token == "madchen" || token == "mädchen") return Department::Girls;
    if (token == "kid" || token == "kinder" || token == "child" || token == "children" || token == "baby") return Department::Kids;
    return Department::Unknown;
}

Department departmentFromText(std::string_view text) {
    for (const auto& token : TextTokenizer::tokens(text)) {
        Department found = departmentFromToken(token);
        if (found != Department::Unknown) return found;
    }
    return Department::Unknown;
}

std::string_view departmentName(Department department) {
    switch (department) {
        case Department::Men: return "Men";
        case Department::Women: return "Women";
        case Department::Unisex: return "Unisex";
        case Department::Boys: return "Boys";
        case Department::Girls: return "Girls";
        case Department::Kids: return "Kids";
        case Department::Unknown: break;
    }
    return "";
}

bool departmentsCompatible(Department a, Department b) {
    if (a == Department::Unknown || b == Department::Unknown || a == b) return true;
    if (a == Department::Unisex || b == Department::Unisex) return true;
    auto child = [](Department d) { return d == Department::Boys || d == Department::Girls || d == Department::Kids; };
    // "Kids" is both boys and girls; boys and girls themselves differ.
    return (a == Department::Kids && child(b)) || (b == Department::Kids && child(a));
}

}  // namespace svc
