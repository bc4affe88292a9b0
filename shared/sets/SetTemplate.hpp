#pragma once
// A set template of the operator's content pool: an outfit pattern ("casual men:
// top, bottom, shoes, belt or watch") matched to each shop's products through their
// content-pool fields. Shared by every tenant.
#include <string>
#include <vector>

namespace svc {

struct TemplateSlot {
    std::string name;                        // "shoes"; clusters of several templates merge by it
    std::vector<std::string> categories;     // matched against any level of a product's category path
    std::vector<std::string> colorFamilies;  // preferred families (empty: any that harmonises)
    // Other words shops use for the slot ("bottom": trousers, pants), read only when svc proposes
    // which of a shop's categories fill it (ADR 0075); matching itself reads `categories`.
    std::vector<std::string> synonyms;

    bool operator==(const TemplateSlot&) const = default;
};

struct SetTemplate {
    std::string id;
    std::string title;
    std::vector<std::string> tags;
    std::vector<std::string> departments;  // empty: any
    std::vector<std::string> occasions;    // empty: any
    std::vector<TemplateSlot> slots;       // at least two

    bool operator==(const SetTemplate&) const = default;
};

}  // namespace svc
