#pragma once
// A reference shop plugin (docs/api/shop-plugin.md) as a real HTTP server on 127.0.0.1 in the
// test process, the shop side of spec endpoint 6: it answers only requests carrying its API ID
// and feed ID in svc-com-tid and svc-com-fid (404 when a header is missing, 403 when one does
// not match, with the contract's {error, message}), serves its attributes and variant
// dimensions, pages its products by limit and offset, answers delta=true with its changed
// products only, and counts what it was asked.
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace svc::test {

class ReferenceShopPlugin {
public:
    ReferenceShopPlugin(std::string apiId, std::string feedId) : apiId_(std::move(apiId)), feedId_(std::move(feedId)) {
        server_.Get("/svc/attributes", [this](const httplib::Request& request, httplib::Response& response) {
            ++attributeRequests;
            if (delayMs > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delayMs.load()));
            if (!authorized(request, response)) return;
            std::lock_guard lock(mutex_);
            if (!rawAttributes_.empty()) return response.set_content(rawAttributes_, "application/json");
            respond(response, {{"data", attributes_}});
        });
        server_.Get("/svc/variant-dimensions", [this](const httplib::Request& request, httplib::Response& response) {
            ++dimensionRequests;
            if (!authorized(request, response)) return;
            std::lock_guard lock(mutex_);
            respond(response, {{"data", dimensions_}});
        });
        server_.Get("/svc/products", [this](const httplib::Request& request, httplib::Response& response) {
            ++productRequests;
            if (!authorized(request, response)) return;
            std::lock_guard lock(mutex_);
            auto number = [&](const char* name, long fallback) {
                return request.has_param(name) ? std::stol(request.get_param_value(name)) : fallback;
            };
            long limit = std::min(number("limit", 50), 500L);
            long offset = number("offset", 0);
            bool delta = request.get_param_value("delta") == "true";
            lastLimit = limit;
            (delta ? deltaRequests : fullRequests)++;
            const auto& products = delta ? changed_ : products_;
            nlohmann::json page = nlohmann::json::array();
            for (long i = offset; i < static_cast<long>(products.size()) && i < offset + limit; ++i) page.push_back(products[static_cast<size_t>(i)]);
            respond(response, {{"limit", limit}, {"offset", offset}, {"total", products.size()}, {"data", page}});
        });
        port = server_.bind_to_any_port("127.0.0.1");
        thread_ = std::thread([this] { server_.listen_after_bind(); });
        for (int attempt = 0; attempt < 500 && !server_.is_running(); ++attempt) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ~ReferenceShopPlugin() {
        server_.stop();
        thread_.join();
    }

    void setCatalog(nlohmann::json attributes, nlohmann::json dimensions, std::vector<nlohmann::json> products) {
        std::lock_guard lock(mutex_);
        attributes_ = std::move(attributes);
        dimensions_ = std::move(dimensions);
        products_ = std::move(products);
    }
    // The attributes answer as this text, whatever it is (a hostile or broken plugin).
    void setRawAttributes(std::string text) {
        std::lock_guard lock(mutex_);
        rawAttributes_ = std::move(text);
    }
    // What delta=true answers: the products whose stock or price changed.
    void setChanged(std::vector<nlohmann::json> products) {
        std::lock_guard lock(mutex_);
        changed_ = std::move(products);
    }
    std::string url(const std::string& path, const std::string& host = "127.0.0.1") const {
        return "http://" + host + ":" + std::to_string(port) + path;
    }
    // The registration body a plugin of this shop sends.
    nlohmann::json registration(const std::string& host = "127.0.0.1") const {
        return {{"api", {{"attributes", url("/svc/attributes", host)}, {"products", url("/svc/products", host)},
                         {"variantDimensions", url("/svc/variant-dimensions", host)}}},
                {"plugin", {{"version", "1.0.0"}}},
                {"shop", {{"software", "Reference shop"}, {"url", "https://shop.example"}, {"version", "2.1"}}}};
    }

    int port = 0;
    std::atomic<int> attributeRequests{0};
    std::atomic<int> dimensionRequests{0};
    std::atomic<int> productRequests{0};
    std::atomic<int> fullRequests{0};
    std::atomic<int> deltaRequests{0};
    std::atomic<int> refused{0};
    std::atomic<long> lastLimit{0};
    std::atomic<int> delayMs{0};  // a slow shop: the attributes answer comes this late

private:
    static void respond(httplib::Response& response, const nlohmann::json& body) { response.set_content(body.dump(), "application/json"); }

    bool authorized(const httplib::Request& request, httplib::Response& response) {
        if (!request.has_header("svc-com-tid") || !request.has_header("svc-com-fid")) {
            ++refused;
            response.status = 404;
            respond(response, {{"error", "CONFIGURATION_ERROR"}, {"message", "svc-com-tid and svc-com-fid are required"}});
            return false;
        }
        if (request.get_header_value("svc-com-tid") != apiId_ || request.get_header_value("svc-com-fid") != feedId_) {
            ++refused;
            response.status = 403;
            respond(response, {{"error", "AUTH_ERROR"}, {"message", "this shop is connected to another svc account"}});
            return false;
        }
        return true;
    }

    std::string apiId_;
    std::string feedId_;
    httplib::Server server_;
    std::thread thread_;
    std::mutex mutex_;
    std::string rawAttributes_;
    nlohmann::json attributes_ = nlohmann::json::array();
    nlohmann::json dimensions_ = nlohmann::json::array();
    std::vector<nlohmann::json> products_;
    std::vector<nlohmann::json> changed_;
};

}  // namespace svc::test
