#pragma once
// /demo/: the demo shop (web-demo/ from the assets, its catalog and images generated into the data
// dir by `svc-server demo setup`), with the loader snippet of the demo tenant like a real shop.
#include <httplib.h>

#include <functional>
#include <string>

namespace svc {

class DemoRoutes {
public:
    using BaseUrl = std::function<std::string(const httplib::Request&)>;
    DemoRoutes(std::string dataDir, std::string assetsDir, BaseUrl baseUrl)
        : dataDir_(std::move(dataDir)), assetsDir_(std::move(assetsDir)), baseUrl_(std::move(baseUrl)) {}
    void registerOn(httplib::Server& server);

private:
    void serve(const httplib::Request& request, httplib::Response& response);

    std::string dataDir_;
    std::string assetsDir_;
    BaseUrl baseUrl_;
};

}  // namespace svc
