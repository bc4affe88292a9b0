#pragma once
// An S3-compatible bucket for tests: s3rver (npm, e2e/node_modules) started on a free loopback
// port behind tests/tools/s3-test-server.js, which checks AWS Signature V4 as S3 does. Used by the
// S3 pull tests and the S3 blob store tests (docs/adr/0034, 0090). `why` says what is missing when
// it could not start (the caller skips with it).
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/ChildProcess.hpp"

namespace svc::test {

struct S3TestObject {
    std::string bucket;
    std::string key;
    std::string bytes;
    std::string contentType;
    std::string contentEncoding;
};

class S3TestServer {
public:
    static constexpr const char* kModule = SVC_SOURCE_DIR "/e2e/node_modules/s3rver";
    static bool installed() { return std::filesystem::exists("/usr/bin/node") && std::filesystem::exists(kModule); }

    // `directory` holds s3rver's data and the manifest. Reads of privateBuckets need a signature
    // of accessKey/secretKey; any signed request is checked.
    S3TestServer(const std::string& directory, const std::string& accessKey, const std::string& secretKey,
                 const std::vector<std::string>& privateBuckets, const std::vector<S3TestObject>& objects) {
        if (!std::filesystem::exists("/usr/bin/node")) {
            why = "node is not installed (scripts/install-deps.sh installs it)";
            return;
        }
        if (!std::filesystem::exists(kModule)) {
            why = std::string(kModule) + " is missing (scripts/install-deps.sh runs npm ci in e2e/)";
            return;
        }
        nlohmann::json manifest{{"accessKey", accessKey}, {"secretKey", secretKey}, {"privateBuckets", privateBuckets}};
        manifest["objects"] = nlohmann::json::array();
        int number = 0;
        for (const auto& object : objects) {
            std::string file = directory + "/s3-object-" + std::to_string(++number);
            std::ofstream(file, std::ios::binary) << object.bytes;
            manifest["objects"].push_back({{"bucket", object.bucket}, {"key", object.key}, {"file", file}, {"contentType", object.contentType}});
            if (!object.contentEncoding.empty()) manifest["objects"].back()["contentEncoding"] = object.contentEncoding;
        }
        std::string manifestPath = directory + "/s3-manifest.json";
        std::ofstream(manifestPath) << manifest.dump();
        std::string out = directory + "/s3-server.out";
        process_ = std::make_unique<ChildProcess>(
            std::vector<std::string>{"/usr/bin/node", SVC_SOURCE_DIR "/tests/tools/s3-test-server.js", kModule, directory + "/s3-data", manifestPath}, out);
        for (int attempt = 0; attempt < 250 && !process_->hasExited(); ++attempt) {
            std::ifstream file(out);
            std::stringstream said;
            said << file.rdbuf();
            if (said.str().rfind("listening ", 0) == 0) {
                port = std::stoi(said.str().substr(10));
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        why = "tests/tools/s3-test-server.js did not start";
        process_.reset();
    }
    ~S3TestServer() {
        if (process_) {
            process_->kill(SIGTERM);
            process_->wait();
        }
    }
    bool running() const { return process_ != nullptr; }
    std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port); }
    std::string url(const std::string& bucket, const std::string& key) const {
        return "s3://" + bucket + "/" + key + "?region=eu-central-1&endpoint=" + endpoint();
    }

    std::string why;
    int port = 0;

private:
    std::unique_ptr<ChildProcess> process_;
};

}  // namespace svc::test
