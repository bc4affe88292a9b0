#pragma once
// What a declaration of the operator's CSS may say. Values are written back token by token, so
// only what is checked here reaches a browser: the functions of an allow-list (colours, maths,
// gradients, transforms, var()...), url() and image-set() only to addresses on svc itself
// (relative paths: the stylesheet is svc's, so they resolve against svc's origin), no
// expression(), no behavior or -moz-binding, no { } blocks, no stray punctuation.
#include <map>
#include <string>

#include "css/CssRule.hpp"

namespace svc::css {

class CssDeclarationPolicy {
public:
    // `renamedKeyframes`: the stylesheet's @keyframes names and what svc renamed them to; the
    // animation properties follow.
    explicit CssDeclarationPolicy(const std::map<std::string, std::string>* renamedKeyframes = nullptr);

    // "name: value [!important]" as svc writes it, or false with the problem.
    bool write(const Declaration& declaration, std::string& out, Problem& problem) const;
    // A value of a condition (@supports, @media): the same checks, no renaming.
    bool checkValue(const std::vector<Component>& value, const std::string& property, Problem& problem) const;
    // The address of url("...") or of a string in image-set(): a relative path on svc.
    static bool allowedUrl(const std::string& url, std::string& reason);

private:
    bool check(const std::vector<Component>& list, const std::string& property, bool inImageSet, Problem& problem) const;

    const std::map<std::string, std::string>* renamedKeyframes_;
};

}  // namespace svc::css
