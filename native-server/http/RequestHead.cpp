#include "http/RequestHead.hpp"

#include <optional>
#include <string>

namespace svc {
namespace {

// RFC 9110 5.6.2: the characters of a field name.
bool isTokenChar(char c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
    return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] + 32) : a[i];
        char y = b[i] >= 'A' && b[i] <= 'Z' ? static_cast<char>(b[i] + 32) : b[i];
        if (x != y) return false;
    }
    return true;
}

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}

// 18 digits stay below 2^63; no body is that large.
constexpr size_t kMaxLengthDigits = 18;

}  // namespace

size_t RequestHead::findEnd(std::string_view data, size_t from) {
    size_t start = from >= 3 ? from - 3 : 0;
    size_t at = data.find("\r\n\r\n", start);
    return at == std::string_view::npos ? std::string_view::npos : at + 4;
}

size_t RequestHead::leadingEmptyLines(std::string_view data) {
    size_t at = 0;
    while (data.substr(at, 2) == "\r\n") at += 2;
    return at;
}

Result<RequestHead> RequestHead::parse(std::string_view head) {
    RequestHead parsed;
    parsed.length_ = head.size();
    if (head.find('\0') != std::string_view::npos) return Error::invalidArgument("request head: contains a NUL byte");
    std::optional<std::string_view> contentLength;
    std::optional<std::string_view> transferEncoding;
    size_t lineStart = 0;
    for (int lineNumber = 1;; ++lineNumber) {
        size_t lineEnd = head.find("\r\n", lineStart);
        if (lineEnd == std::string_view::npos) return Error::invalidArgument("request head: does not end with an empty line");
        std::string_view line = head.substr(lineStart, lineEnd - lineStart);
        lineStart = lineEnd + 2;
        if (line.find_first_of("\r\n") != std::string_view::npos) {
            return Error::invalidArgument("request head, line " + std::to_string(lineNumber) + ": CR or LF alone (lines end with CRLF)");
        }
        if (lineNumber == 1) {
            if (line.empty()) return Error::invalidArgument("request line: empty");
            continue;
        }
        if (line.empty()) break;  // the head's end
        if (line.front() == ' ' || line.front() == '\t') {
            return Error::invalidArgument("request head, line " + std::to_string(lineNumber) + ": folded header line");
        }
        size_t colon = line.find(':');
        if (colon == std::string_view::npos) {
            return Error::invalidArgument("request head, line " + std::to_string(lineNumber) + ": a header line without ':'");
        }
        std::string_view name = line.substr(0, colon);
        for (char c : name) {
            if (!isTokenChar(c)) {
                return Error::invalidArgument("request head, line " + std::to_string(lineNumber) + ": the header name '" + std::string(name) +
                                              "' has a character a name cannot have");
            }
        }
        std::string_view value = trimmed(line.substr(colon + 1));
        if (equalsIgnoringCase(name, "Content-Length")) {
            if (contentLength) return Error::invalidArgument("content-length: given twice");
            contentLength = value;
        } else if (equalsIgnoringCase(name, "Expect")) {
            parsed.expectsContinue_ = equalsIgnoringCase(value, "100-continue");
        } else if (equalsIgnoringCase(name, "Transfer-Encoding")) {
            if (transferEncoding) return Error::invalidArgument("transfer-encoding: given twice");
            transferEncoding = value;
        }
    }
    if (contentLength && transferEncoding) {
        return Error::invalidArgument("content-length: not allowed together with transfer-encoding");
    }
    if (transferEncoding) {
        if (!equalsIgnoringCase(*transferEncoding, "chunked")) {
            return Error::invalidArgument("transfer-encoding: '" + std::string(*transferEncoding) + "' is not supported (only chunked)");
        }
        parsed.framing_ = BodyFraming::chunked();
    } else if (contentLength) {
        bool digits = !contentLength->empty() && contentLength->size() <= kMaxLengthDigits &&
                      contentLength->find_first_not_of("0123456789") == std::string_view::npos;
        if (!digits) return Error::invalidArgument("content-length: '" + std::string(*contentLength) + "' is not a byte count");
        parsed.framing_ = BodyFraming::length(std::stoull(std::string(*contentLength)));
    }
    return parsed;
}

}  // namespace svc
