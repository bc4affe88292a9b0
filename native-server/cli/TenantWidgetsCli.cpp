#include "cli/TenantWidgetsCli.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/DatabaseUrlOption.hpp"
#include "text/BoundedJson.hpp"

namespace svc {
namespace {

int failWith(const Error& error) {
    std::cerr << "svc-server: error: " << error.message << "\n";
    return 1;
}

Result<std::string> readWholeFile(const std::string& path, const std::string& option) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error::invalidArgument(option + ": cannot read " + path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

nlohmann::ordered_json settingsJson(const std::string& apiId, const WidgetSettings& settings) {
    nlohmann::ordered_json texts = nlohmann::ordered_json::object();
    for (const auto& [language, bundle] : settings.textBundles) {
        auto parsed = BoundedJson::parseOrdered(bundle, "texts");
        texts[language] = parsed ? std::move(*parsed) : nlohmann::ordered_json();
    }
    return {{"apiId", apiId},
            {"languageRule", LanguageRule::sourceName(settings.languageRule.source)},
            {"defaultLanguage", settings.languageRule.defaultLanguage},
            {"country", settings.country},
            {"consent", consentName(settings.consent)},
            {"lowestPrice30Days", settings.requiresLowestPrice30Days()},
            {"cssBytes", settings.css.size()},
            {"texts", texts}};
}

}  // namespace

void TenantWidgetsCli::addTo(CLI::App& tenantCommand, std::string& dataDir, std::string& databaseUrl) {
    widgets_ = tenantCommand.add_subcommand("widgets", "Widget presentation: language rule, country (price rules) and CSS; prints the settings");
    widgets_->add_option("--data-dir", dataDir, "Data directory")->required();
    DatabaseUrlOption::addTo(*widgets_, databaseUrl);
    widgets_->add_option("--api-id", apiId_, "The tenant's API ID")->required();
    widgets_->add_option("--language-rule", languageRule_,
                         "How a page's language is found: html-lang (<html lang>), path-segment (/de/...) or fixed");
    widgets_->add_option("--default-language", defaultLanguage_, "The fixed language, and the one used when the page names none with texts (e.g. de)");
    widgets_->add_option("--country", country_, "ISO 3166 country whose price rules apply, e.g. DE (EU: lowest 30-day price); '' clears");
    widgets_->add_option("--consent", consent_,
                         "The visitor's consent the SDK assumes until the shop's page states it: granted (the default), pending or denied")
        ->check(CLI::IsMember({"pending", "granted", "denied"}));
    cssFileOption_ = widgets_->add_option("--css-file", cssFile_, "The tenant's CSS, appended to the base stylesheet with every selector inside the widgets (.svc-widget); CSS that reaches outside is refused with its line and column");
    widgets_->add_flag("--clear-css", clearCss_, "Remove the tenant's CSS")->excludes(cssFileOption_);

    texts_ = tenantCommand.add_subcommand("texts", "Set (or --remove) the tenant's widget texts of one language from a JSON file");
    texts_->add_option("--data-dir", dataDir, "Data directory")->required();
    DatabaseUrlOption::addTo(*texts_, databaseUrl);
    texts_->add_option("--api-id", apiId_, "The tenant's API ID")->required();
    texts_->add_option("--language", language_, "Language code, e.g. de")->required();
    auto* file = texts_->add_option("FILE", textsFile_, "JSON object of text key to text, e.g. {\"addToCart\": \"Ajouter\"}");
    texts_->add_flag("--remove", remove_, "Remove the bundle: the built-in texts apply again")->excludes(file);
}

bool TenantWidgetsCli::parsed() const { return (widgets_ && widgets_->parsed()) || (texts_ && texts_->parsed()); }

int TenantWidgetsCli::run(Storage& storage) {
    auto found = storage.tenants().findByApiId(apiId_);
    if (!found) return failWith(found.error());
    if (!*found) return failWith(Error::notFound("--api-id: no tenant with API ID " + apiId_));
    const Tenant& tenant = **found;
    WidgetSettingsStore& store = storage.widgetSettings();
    int64_t now = storage.clock().nowSeconds();

    if (texts_->parsed()) {
        if (remove_) {
            if (auto status = store.removeTexts(tenant.id, language_); !status) return failWith(status.error());
        } else {
            if (textsFile_.empty()) return failWith(Error::invalidArgument("FILE: give the JSON file of texts, or --remove"));
            auto json = readWholeFile(textsFile_, "FILE");
            if (!json) return failWith(json.error());
            if (auto status = store.setTexts(tenant.id, language_, *json, now); !status) {
                return failWith(Error::invalidArgument(textsFile_ + ": " + status.error().message));
            }
        }
    } else {
        WidgetSettingsChange change;
        if (languageRule_) {
            auto source = LanguageRule::parseSource(*languageRule_, "--language-rule");
            if (!source) return failWith(source.error());
            change.languageSource = *source;
        }
        if (defaultLanguage_) change.defaultLanguage = *defaultLanguage_;
        if (country_) change.country = *country_;
        if (consent_) change.consent = parseConsent(*consent_);
        if (cssFile_) {
            auto css = readWholeFile(*cssFile_, "--css-file");
            if (!css) return failWith(css.error());
            change.css = *css;
        }
        if (clearCss_) change.css = "";
        if (auto status = store.change(tenant.id, change, now); !status) {
            std::string message = status.error().message;
            // The store names its fields; the operator typed options.
            for (const char* field : {"default language", "country", "css"}) {
                if (message.rfind(field, 0) == 0) {
                    std::string option = std::string(field) == "default language" ? "--default-language"
                                         : std::string(field) == "country"        ? "--country"
                                                                                  : "--css-file";
                    message = option + message.substr(std::string(field).size());
                    break;
                }
            }
            return failWith(Error::invalidArgument(message));
        }
    }
    auto settings = store.load(tenant.id);
    if (!settings) return failWith(settings.error());
    std::cout << settingsJson(tenant.apiId, *settings).dump(2) << std::endl;
    return 0;
}

}  // namespace svc
