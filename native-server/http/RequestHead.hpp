#pragma once
// A complete request head as the connection gate sees it before cpp-httplib does
// (docs/adr/0057): where it ends, and how its body is framed. Heads whose framing two HTTP
// parsers could read differently are refused, never guessed at: Content-Length together with
// Transfer-Encoding, a repeated or non-numeric Content-Length, a transfer coding other than
// chunked, bare CR or LF, folded lines, whitespace before a colon.
#include <string_view>

#include "core/Result.hpp"
#include "http/BodyFraming.hpp"

namespace svc {

class RequestHead {
public:
    // The length of the head that starts data (through its empty line), or npos while incomplete.
    // `from`: bytes already searched (a new search starts a few bytes earlier).
    static size_t findEnd(std::string_view data, size_t from = 0);
    // Empty lines before a request line (RFC 9112 2.2): some clients send a CRLF after a body.
    static size_t leadingEmptyLines(std::string_view data);
    // head: exactly the bytes findEnd measured. Errors name the header or the line.
    static Result<RequestHead> parse(std::string_view head);

    size_t length() const { return length_; }
    const BodyFraming& framing() const { return framing_; }
    // "Expect: 100-continue": the client sends its body only after cpp-httplib's interim answer.
    bool expectsContinue() const { return expectsContinue_; }

private:
    size_t length_ = 0;
    BodyFraming framing_;
    bool expectsContinue_ = false;
};

}  // namespace svc
