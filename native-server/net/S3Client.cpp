#include "net/S3Client.hpp"

#include <curl/curl.h>

#include <cctype>
#include <memory>
#include <mutex>

#include "net/S3Signature.hpp"
#include "text/StringUtil.hpp"

namespace svc {
namespace {

size_t collectBody(char* data, size_t size, size_t count, void* user) {
    static_cast<std::string*>(user)->append(data, size * count);
    return size * count;
}

size_t collectEtag(char* data, size_t size, size_t count, void* user) {
    std::string_view line(data, size * count);
    size_t colon = line.find(':');
    if (colon != std::string_view::npos && toLower(trim(line.substr(0, colon))) == "etag") {
        *static_cast<std::string*>(user) = std::string(trim(line.substr(colon + 1)));
    }
    return size * count;
}

// The text of <name>...</name> in an S3 XML answer; empty when absent.
std::string xmlValue(const std::string& body, const std::string& name) {
    size_t start = body.find("<" + name + ">");
    if (start == std::string::npos) return "";
    start += name.size() + 2;
    size_t end = body.find("</" + name + ">", start);
    return end == std::string::npos ? "" : body.substr(start, end - start);
}

// S3 error codes are words; anything else in <Code> is not repeated in a message.
std::string errorCode(const std::string& body) {
    std::string code = xmlValue(body, "Code");
    if (code.size() > 64) return "";
    for (char c : code) {
        if (!std::isalnum(static_cast<unsigned char>(c))) return "";
    }
    return code;
}

std::string xmlEscape(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '&') out += "&amp;";
        else if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else if (c == '"') out += "&quot;";
        else out += c;
    }
    return out;
}

}  // namespace

S3Client::S3Client(S3Location bucket, S3Credentials credentials, long timeoutMs)
    : bucket_(std::move(bucket)), credentials_(std::move(credentials)), timeoutMs_(timeoutMs) {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

Result<S3Client::Answer> S3Client::perform(const char* method, const std::string& key, const std::string& query, std::string_view body,
                                           const std::vector<std::string>& headers) const {
    S3Location object = bucket_;
    object.key = key;
    std::string url = object.httpUrl() + (query.empty() ? "" : "?" + query);
    std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
    if (!curl) return Error::internal("libcurl could not create a handle");
    CURL* handle = curl.get();
    Answer answer;
    char errorText[CURL_ERROR_SIZE] = {0};
    curl_easy_setopt(handle, CURLOPT_URL, url.c_str());
    curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(handle, CURLOPT_PROXY, "");
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, errorText);
    curl_easy_setopt(handle, CURLOPT_USERAGENT, "svc-blobs/1.0");
    curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, std::min(timeoutMs_, 10'000L));
    curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, timeoutMs_);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, collectBody);
    curl_easy_setopt(handle, CURLOPT_WRITEDATA, &answer.body);
    curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, collectEtag);
    curl_easy_setopt(handle, CURLOPT_HEADERDATA, &answer.etag);
    std::string verb = method;
    if (verb == "PUT" || verb == "POST") {
        curl_easy_setopt(handle, CURLOPT_POSTFIELDS, body.data());
        curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    }
    if (verb != "GET" && verb != "POST") curl_easy_setopt(handle, CURLOPT_CUSTOMREQUEST, method);
    curl_slist* list = nullptr;
    S3Signature::apply(handle, bucket_.signingScope(), credentials_.accessKeyId, credentials_.secretAccessKey, S3Signature::payloadHash(body), list);
    // A body is opaque bytes, never a form; and sent at once, without waiting for 100 Continue.
    if (verb == "PUT" || verb == "POST") list = curl_slist_append(list, "Content-Type: application/octet-stream");
    for (const auto& header : headers) list = curl_slist_append(list, header.c_str());
    std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headerList(list, curl_slist_free_all);
    curl_easy_setopt(handle, CURLOPT_HTTPHEADER, list);
    CURLcode code = curl_easy_perform(handle);
    if (code != CURLE_OK) {
        return Error::unavailable("blob store: " + std::string(method) + " " + key + " on " + bucket_.bucket + " failed: " +
                                  (errorText[0] ? std::string(errorText) : std::string(curl_easy_strerror(code))));
    }
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &answer.status);
    return answer;
}

Error S3Client::refusal(const std::string& what, const std::string& key, const Answer& answer) const {
    std::string code = errorCode(answer.body);
    std::string message = "blob store: " + what + " " + key + " in bucket " + bucket_.bucket + ": the bucket answered " +
                          std::to_string(answer.status) + (code.empty() ? "" : " (" + code + ")");
    if (answer.status == 404) return Error::notFound(message);
    // A refused signature is the operator's configuration, not the caller's permission: the service is unavailable.
    return Error::unavailable(message);
}

Status S3Client::put(const std::string& key, std::string_view body) const {
    auto answer = perform("PUT", key, "", body, {});
    if (!answer) return answer.error();
    if (answer->status != 200) return refusal("storing", key, *answer);
    return Status::success();
}

Result<std::string> S3Client::getRange(const std::string& key, int64_t offset, int64_t length) const {
    auto answer = perform("GET", key, "", "", {"Range: bytes=" + std::to_string(offset) + "-" + std::to_string(offset + length - 1)});
    if (!answer) return answer.error();
    if (answer->status == 416) return std::string();  // the range starts at or past the end
    if (answer->status == 206) return std::move(answer->body);
    // A server that ignores Range sends the whole object: the part asked for is cut out of it.
    if (answer->status == 200) {
        if (offset >= static_cast<int64_t>(answer->body.size())) return std::string();
        return answer->body.substr(static_cast<size_t>(offset), static_cast<size_t>(length));
    }
    return refusal("reading", key, *answer);
}

Status S3Client::remove(const std::string& key) const {
    auto answer = perform("DELETE", key, "", "", {});
    if (!answer) return answer.error();
    if (answer->status != 204 && answer->status != 200 && answer->status != 404) return refusal("removing", key, *answer);
    return Status::success();
}

Result<std::string> S3Client::startMultipart(const std::string& key) const {
    auto answer = perform("POST", key, "uploads=", "", {});
    if (!answer) return answer.error();
    std::string uploadId = xmlValue(answer->body, "UploadId");
    if (answer->status != 200 || uploadId.empty()) return refusal("starting the upload of", key, *answer);
    return uploadId;
}

Result<std::string> S3Client::uploadPart(const std::string& key, const std::string& uploadId, int partNumber, std::string_view body) const {
    auto answer = perform("PUT", key, "partNumber=" + std::to_string(partNumber) + "&uploadId=" + urlEncode(uploadId), body, {});
    if (!answer) return answer.error();
    if (answer->status != 200 || answer->etag.empty()) return refusal("uploading part " + std::to_string(partNumber) + " of", key, *answer);
    return answer->etag;
}

Status S3Client::completeMultipart(const std::string& key, const std::string& uploadId, const std::vector<std::string>& partEtags) const {
    std::string xml = "<CompleteMultipartUpload>";
    for (size_t i = 0; i < partEtags.size(); ++i) {
        xml += "<Part><PartNumber>" + std::to_string(i + 1) + "</PartNumber><ETag>" + xmlEscape(partEtags[i]) + "</ETag></Part>";
    }
    xml += "</CompleteMultipartUpload>";
    auto answer = perform("POST", key, "uploadId=" + urlEncode(uploadId), xml, {});
    if (!answer) return answer.error();
    // S3 may answer 200 and still report a failure in the body.
    if (answer->status != 200 || answer->body.find("<Error>") != std::string::npos) return refusal("completing the upload of", key, *answer);
    return Status::success();
}

Status S3Client::abortMultipart(const std::string& key, const std::string& uploadId) const {
    auto answer = perform("DELETE", key, "uploadId=" + urlEncode(uploadId), "", {});
    if (!answer) return answer.error();
    if (answer->status != 204 && answer->status != 200 && answer->status != 404) return refusal("aborting the upload of", key, *answer);
    return Status::success();
}

}  // namespace svc
