#include "http/FeedRoutes.hpp"

#include <sodium.h>

#include <nlohmann/json.hpp>

#include "feed/ImportJson.hpp"
#include "http/HttpErrors.hpp"
#include "http/HttpJson.hpp"
#include "http/RequestContext.hpp"
#include "text/StringUtil.hpp"

namespace svc {
namespace {

constexpr const char* kUploadPath = "/feeds/uploads/";

// Import states change by the second: never cached.
void sendImportJson(httplib::Response& response, const nlohmann::ordered_json& body) { sendJson(response, 200, body, JsonCaching::NoStore); }

std::string randomUploadId() {
    unsigned char bytes[16];
    randombytes_buf(bytes, sizeof bytes);
    char hex[sizeof bytes * 2 + 1];
    sodium_bin2hex(hex, sizeof hex, bytes, sizeof bytes);
    return hex;
}

bool isHeaderSafe(const std::string& value) {
    if (value.empty() || value.size() > 64) return false;
    for (char c : value) {
        if (c < 0x21 || c > 0x7E || c == '"' || c == ';' || c == ',') return false;
    }
    return true;
}

Result<FeedImportOptions> parseFeedOptions(const httplib::Request& request) {
    FeedImportOptions options;
    if (request.has_param("identifier")) options.identifier = request.get_param_value("identifier");
    if (request.has_param("delimiter")) {
        auto delimiter = FeedImportOptions::parseDelimiter(request.get_param_value("delimiter"), "delimiter");
        if (!delimiter) return delimiter.error();
        options.delimiter = *delimiter;
    }
    if (request.has_param("delta")) {
        std::string delta = request.get_param_value("delta");
        if (delta != "true" && delta != "false") return Error::invalidArgument("delta: must be true or false");
        options.delta = delta == "true";
    }
    // Which feed a dry run stands for: what a full one would delete depends on what that feed owns (ADR 0070).
    if (request.has_param("feed")) options.feed = request.get_param_value("feed");
    if (auto errors = options.validate(FeedImportFieldNames::api()); !errors.empty()) return errors.front();
    return options;
}

Result<int64_t> importIdOf(const httplib::Request& request) {
    auto id = parseInt64(request.matches[1].str());
    if (!id || *id <= 0) return Error::invalidArgument("import id: must be a positive integer");
    return *id;
}

}  // namespace

Result<UploadRequest> parseUploadRequest(const std::string& body) {
    auto read = parseJsonObject(body);
    if (!read) return read.error();
    const nlohmann::json& json = *read;
    UploadRequest request;
    FeedImportOptions& options = request.options;
    auto identifier = json.find("identifier");
    if (identifier == json.end() || identifier->is_null()) return Error::invalidArgument("identifier: required");
    if (!identifier->is_string()) return Error::invalidArgument("identifier: must be a string");
    options.identifier = identifier->get<std::string>();
    // Stricter than FeedImportOptions' rule because of the transport: the identifier travels in
    // the upload's signed x-svc-meta-identifier header.
    if (!isHeaderSafe(options.identifier)) {
        return Error::invalidArgument("identifier: must be 1-64 visible ASCII characters without quotes, ';' or ','");
    }
    auto format = json.find("format");
    if (format == json.end() || format->is_null()) return Error::invalidArgument("format: required");
    if (!format->is_object()) return Error::invalidArgument("format: must be an object");
    auto type = format->find("type");
    if (type == format->end() || !type->is_string()) return Error::invalidArgument("format.type: required, a string");
    if (type->get<std::string>() != "csv") {
        return Error::invalidArgument("format.type: '" + type->get<std::string>() + "' is not supported; the only type is csv");
    }
    auto formatOptions = format->find("options");
    if (formatOptions != format->end() && !formatOptions->is_null()) {
        if (!formatOptions->is_object()) return Error::invalidArgument("format.options: must be an object");
        auto delimiter = formatOptions->find("delimiter");
        if (delimiter != formatOptions->end() && !delimiter->is_null()) {
            if (!delimiter->is_string()) return Error::invalidArgument("format.options.delimiter: must be a string");
            auto parsed = FeedImportOptions::parseDelimiter(delimiter->get<std::string>(), "format.options.delimiter");
            if (!parsed) return parsed.error();
            options.delimiter = *parsed;
        }
    }
    auto delta = json.find("delta");
    if (delta != json.end() && !delta->is_null()) {
        if (!delta->is_boolean()) return Error::invalidArgument("delta: must be a boolean");
        options.delta = delta->get<bool>();
    }
    auto feed = json.find("feed");
    if (feed != json.end() && !feed->is_null()) {
        if (!feed->is_string()) return Error::invalidArgument("feed: must be a string");
        request.feed = feed->get<std::string>();
    }
    FeedImportOptions checked = options;
    checked.feed = request.feed;
    if (auto errors = checked.validate({"identifier", "format.options.delimiter", "feed"}); !errors.empty()) return errors.front();
    return request;
}

std::map<std::string, std::string> FeedRoutes::signedHeaders(const FeedUpload& upload) {
    return {{"content-type", "text/csv"},
            {"x-svc-meta-delimiter", std::string(1, upload.delimiter)},
            {"x-svc-meta-delta", upload.delta ? "true" : "false"},
            {"x-svc-meta-identifier", upload.identifier}};
}

void FeedRoutes::registerOn(httplib::Server& server) {
    server.Post("/feeds/uploads", [this](const httplib::Request& request, httplib::Response& response) {
        requestUpload(request, response);
    });
    server.Put("/feeds/uploads/([0-9a-f]{1,64})",
               [this](const httplib::Request& request, httplib::Response& response, const httplib::ContentReader& reader) {
                   receiveUpload(request, response, reader);
               });
    server.Get("/feeds/imports", [this](const httplib::Request& request, httplib::Response& response) { listImports(request, response); });
    server.Get(R"(/feeds/imports/([^/]+))", [this](const httplib::Request& request, httplib::Response& response) {
        showImport(request, response);
    });
    server.Post(R"(/feeds/imports/([^/]+)/confirm)", [this](const httplib::Request& request, httplib::Response& response) {
        confirmImport(request, response);
    });
    server.Post(R"(/feeds/imports/([^/]+)/discard)", [this](const httplib::Request& request, httplib::Response& response) {
        discardImport(request, response);
    });
    server.Post("/feeds/validate",
                [this](const httplib::Request& request, httplib::Response& response, const httplib::ContentReader& reader) {
                    validateFeed(request, response, reader);
                });
}

void FeedRoutes::requestUpload(const httplib::Request& request, httplib::Response& response) {
    // Credentials first: an unauthenticated request learns nothing and records nothing.
    auto tenant = authenticateTenant(request, tenants_);
    if (!tenant) return sendError(response, tenant.error());
    std::string contentType = toLower(request.get_header_value("Content-Type"));
    if (contentType.rfind("application/json", 0) != 0) {
        return sendError(response, Error::invalidArgument("content-type: must be application/json"));
    }
    auto parsed = parseUploadRequest(request.body);
    if (!parsed) return sendError(response, parsed.error());
    FeedUpload upload;
    upload.id = randomUploadId();
    upload.tenantId = tenant->id;
    upload.feed = parsed->feed;
    upload.identifier = parsed->options.identifier;
    upload.delimiter = parsed->options.delimiter;
    upload.delta = parsed->options.delta;
    upload.expiresAt = clock_.nowSeconds() + options_.uploadUrlLifetimeSeconds;
    if (auto status = history_.createUpload(upload); !status) return sendError(response, status.error());
    auto headers = signedHeaders(upload);
    std::string path = kUploadPath + upload.id;
    std::string signature = signer_.sign("PUT", path, upload.expiresAt, headers);
    nlohmann::ordered_json headerJson = nlohmann::ordered_json::object();
    for (const auto& [name, value] : headers) headerJson[name] = value;
    sendImportJson(response, {{"headers", headerJson},
                        {"method", "PUT"},
                        {"url", baseUrl_(request) + path + "?expires=" + std::to_string(upload.expiresAt) + "&signature=" + signature}});
}

void FeedRoutes::receiveUpload(const httplib::Request& request, httplib::Response& response, const httplib::ContentReader& reader) {
    std::string uploadId = request.matches[1];
    auto refuse = [&](const std::string& why) { sendError(response, Error::permissionDenied(why)); };
    auto upload = history_.findUpload(uploadId);
    if (!upload) return sendError(response, upload.error());
    auto expires = parseInt64(request.get_param_value("expires"));
    std::string signature = request.get_param_value("signature");
    if (!*upload || !expires) return refuse("the upload URL is not valid");
    auto headers = signedHeaders(**upload);
    if (*expires != (*upload)->expiresAt || !signer_.verify(signature, "PUT", kUploadPath + uploadId, *expires, headers)) {
        return refuse("the upload URL's signature does not match");
    }
    if (clock_.nowSeconds() > *expires) return refuse("the upload URL has expired; request a new one");
    for (const auto& [name, value] : headers) {
        if (!request.has_header(name.c_str()) || request.get_header_value(name.c_str()) != value) {
            return refuse("header " + name + ": missing or not the value returned with the upload URL ('" + value + "')");
        }
    }
    auto declaredLength = parseInt64(request.get_header_value("Content-Length"));
    if (declaredLength && static_cast<size_t>(*declaredLength) > options_.maxUploadBytes) return sendError(response, fileTooLarge());
    if (auto status = history_.consumeUpload(uploadId, clock_.nowSeconds()); !status) return sendError(response, status.error());

    FeedImportRecord record;
    record.tenantId = (*upload)->tenantId;
    record.feed = (*upload)->feed;
    record.source = "push";
    record.delta = (*upload)->delta;
    record.identifier = (*upload)->identifier;
    record.delimiter = (*upload)->delimiter;
    record.createdAt = clock_.nowSeconds();
    record.fileKey = "upload-" + uploadId + ".csv";
    auto failUpload = [&](const Error& error) {
        // The URL is used up either way; the history says why this upload did not arrive.
        record.status = ImportStatus::Failed;
        record.message = "upload: " + error.message;
        record.fileKey.clear();
        record.finishedAt = clock_.nowSeconds();
        if (auto id = history_.queueUploadedFile(uploadId, record)) {
            record.id = *id;
            (void)history_.update(record);
        }
        sendError(response, error);
    };

    // Durable before acknowledged: the import runs later from this stored copy.
    auto received = storeBody(record.fileKey, reader);
    if (!received) return failUpload(received.error());
    record.status = ImportStatus::Queued;
    auto id = history_.queueUploadedFile(uploadId, record);
    if (!id) return sendError(response, id.error());
    worker_.notify();
    sendImportJson(response, {{"importId", *id}, {"status", "queued"}, {"bytes", *received}});
}

void FeedRoutes::listImports(const httplib::Request& request, httplib::Response& response) {
    auto tenant = authenticateTenant(request, tenants_);
    if (!tenant) return sendError(response, tenant.error());
    size_t limit = 50;
    if (request.has_param("limit")) {
        auto parsed = parseInt64(request.get_param_value("limit"));
        if (!parsed || *parsed < 1 || *parsed > 1000) return sendError(response, Error::invalidArgument("limit: must be 1 to 1000"));
        limit = static_cast<size_t>(*parsed);
    }
    std::string feed = request.get_param_value("feed");
    if (!feed.empty()) {
        if (auto valid = validateFeedName(feed, "feed"); !valid) return sendError(response, valid.error());
    }
    auto records = history_.list(tenant->id, feed, limit);
    if (!records) return sendError(response, records.error());
    auto list = nlohmann::ordered_json::array();
    for (const auto& record : *records) list.push_back(importRecordJson(record, false));
    sendImportJson(response, {{"imports", list}});
}

Result<std::pair<Tenant, int64_t>> FeedRoutes::tenantAndImportId(const httplib::Request& request) {
    auto tenant = authenticateTenant(request, tenants_);
    if (!tenant) return tenant.error();
    auto id = importIdOf(request);
    if (!id) return id.error();
    return std::pair<Tenant, int64_t>{std::move(*tenant), *id};
}

void FeedRoutes::showImport(const httplib::Request& request, httplib::Response& response) {
    auto target = tenantAndImportId(request);
    if (!target) return sendError(response, target.error());
    auto& [tenant, id] = *target;
    auto record = history_.find(tenant.id, id);
    if (!record) return sendError(response, record.error());
    if (!*record) return sendError(response, Error::notFound("import " + std::to_string(id) + " does not exist"));
    sendImportJson(response, importRecordJson(**record, true));
}

void FeedRoutes::confirmImport(const httplib::Request& request, httplib::Response& response) {
    auto target = tenantAndImportId(request);
    if (!target) return sendError(response, target.error());
    auto outcome = imports_.confirm(target->first, target->second);
    if (!outcome) return sendError(response, outcome.error());
    sendImportJson(response, importRecordJson(outcome->record, true));
}

void FeedRoutes::discardImport(const httplib::Request& request, httplib::Response& response) {
    auto target = tenantAndImportId(request);
    if (!target) return sendError(response, target.error());
    auto record = imports_.discard(target->first, target->second);
    if (!record) return sendError(response, record.error());
    sendImportJson(response, importRecordJson(*record, false));
}

Error FeedRoutes::fileTooLarge() const {
    return Error::resourceExhausted("the file is larger than " + std::to_string(options_.maxUploadBytes) + " bytes");
}

Result<size_t> FeedRoutes::storeBody(const std::string& key, const httplib::ContentReader& reader) {
    return storeRequestBody(files_, key, reader, options_.maxUploadBytes);
}

Result<size_t> storeRequestBody(BlobStore& files, const std::string& key, const httplib::ContentReader& reader, size_t maxBytes) {
    auto writer = files.create(key);
    if (!writer) return writer.error();
    size_t received = 0;
    Status writeStatus;
    bool tooLarge = false;
    bool complete = reader([&](const char* data, size_t length) {
        received += length;
        if (received > maxBytes) {
            tooLarge = true;
            return false;
        }
        writeStatus = (*writer)->write(std::string_view(data, length));
        return writeStatus.ok();
    });
    if (tooLarge) return Error::resourceExhausted("the file is larger than " + std::to_string(maxBytes) + " bytes");
    if (!writeStatus) return writeStatus.error();
    if (!complete) return Error::invalidArgument("the upload was interrupted");
    if (auto status = (*writer)->commit(); !status) return status.error();
    return received;
}

void FeedRoutes::validateFeed(const httplib::Request& request, httplib::Response& response, const httplib::ContentReader& reader) {
    auto tenant = authenticateTenant(request, tenants_);
    if (!tenant) return sendError(response, tenant.error());
    auto options = parseFeedOptions(request);
    if (!options) return sendError(response, options.error());
    // Spooled to the (encrypted) blob store and read back, as an upload is: memory stays
    // bounded whatever the file's size. The spooled copy is removed afterwards, whatever happens.
    std::string key = "validate-" + randomUploadId() + ".csv";
    struct Spool {
        BlobStore& files;
        std::string key;
        ~Spool() { (void)files.remove(key); }
    } spool{files_, key};
    if (auto stored = storeBody(key, reader); !stored) return sendError(response, stored.error());
    auto outcome = imports_.dryRunStored(*tenant, key, *options);
    if (!outcome) return sendError(response, outcome.error());
    bool held = exceedsDeleteShare(outcome->report, options->delta, tenant->maxDeleteShare);
    sendImportJson(response, dryRunJson(outcome->report, options->delta, held));
}

}  // namespace svc
