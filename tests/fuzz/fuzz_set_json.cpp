// Set files (templates, custom sets, photo sets) come from operators and shops, through
// the CLI and the authoring endpoints: any input is refused with an error value or parsed
// into sets that survive a round trip unchanged.
#include <cstdint>
#include <string>

#include "sets/SetJson.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    auto file = svc::setFileFromJson(text);
    if (!file) return 0;
    nlohmann::json again{{"templates", nlohmann::json::array()}, {"customSets", nlohmann::json::array()}, {"photoSets", nlohmann::json::array()}};
    for (const auto& t : file->templates) again["templates"].push_back(svc::toJson(t));
    for (const auto& s : file->customSets) again["customSets"].push_back(svc::toJson(s));
    for (const auto& p : file->photoSets) again["photoSets"].push_back(svc::toJson(p));
    auto reparsed = svc::setFileFromJson(again.dump());
    if (!reparsed || reparsed->templates != file->templates || reparsed->customSets != file->customSets ||
        reparsed->photoSets != file->photoSets)
        __builtin_trap();
    return 0;
}
