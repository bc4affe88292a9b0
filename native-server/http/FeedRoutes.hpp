#pragma once
// The feed endpoints: pre-signed push uploads (spec endpoints 1 and 2), import
// history, confirming or discarding held imports, and dry runs.
#include <httplib.h>

#include <functional>
#include <string>

#include "feed/FeedImportService.hpp"
#include "feed/ImportWorker.hpp"
#include "feed/UploadSigner.hpp"
#include "tenant/TenantService.hpp"

namespace svc {

struct FeedRoutesOptions {
    int64_t uploadUrlLifetimeSeconds = 3600;
    size_t maxUploadBytes = size_t{2} << 30;     // 2 GiB
};

class FeedRoutes {
public:
    FeedRoutes(TenantService& tenants, FeedImportStore& history, FeedImportService& imports, BlobStore& files,
               const UploadSigner& signer, ImportWorker& worker, const Clock& clock, FeedRoutesOptions options,
               std::function<std::string(const httplib::Request&)> baseUrl)
        : tenants_(tenants), history_(history), imports_(imports), files_(files), signer_(signer), worker_(worker),
          clock_(clock), options_(options), baseUrl_(std::move(baseUrl)) {}

    void registerOn(httplib::Server& server);
    static std::map<std::string, std::string> signedHeaders(const FeedUpload& upload);

private:
    void requestUpload(const httplib::Request& request, httplib::Response& response);
    void receiveUpload(const httplib::Request& request, httplib::Response& response, const httplib::ContentReader& reader);
    void listImports(const httplib::Request& request, httplib::Response& response);
    // The authenticated tenant and the import id of /feeds/imports/:id[/...] (401 or 400 otherwise).
    Result<std::pair<Tenant, int64_t>> tenantAndImportId(const httplib::Request& request);
    void showImport(const httplib::Request& request, httplib::Response& response);
    void confirmImport(const httplib::Request& request, httplib::Response& response);
    void discardImport(const httplib::Request& request, httplib::Response& response);
    void validateFeed(const httplib::Request& request, httplib::Response& response, const httplib::ContentReader& reader);
    // Streams the request body into the blob store under `key` (at most maxUploadBytes) and
    // commits it; the bytes received, or why not (too large, interrupted, storage).
    Result<size_t> storeBody(const std::string& key, const httplib::ContentReader& reader);
    Error fileTooLarge() const;

    TenantService& tenants_;
    FeedImportStore& history_;
    FeedImportService& imports_;
    BlobStore& files_;
    const UploadSigner& signer_;
    ImportWorker& worker_;
    const Clock& clock_;
    FeedRoutesOptions options_;
    std::function<std::string(const httplib::Request&)> baseUrl_;
};

struct UploadRequest {
    FeedImportOptions options;
    std::string feed = "default";
};

// Streams a request body into `files` under `key` (at most `maxBytes`) and commits it; the
// bytes received, or why not (too large, interrupted, storage). Push uploads and the console's
// uploads (OperatorFeedRoutes) store files the same way.
Result<size_t> storeRequestBody(BlobStore& files, const std::string& key, const httplib::ContentReader& reader, size_t maxBytes);

// Validates a POST /feeds/uploads body field by field; errors name the field.
Result<UploadRequest> parseUploadRequest(const std::string& body);

}  // namespace svc
