#pragma once
// Where a request's body ends on the connection (docs/adr/0057): after Content-Length bytes, after
// the last chunk of a chunked body, or at once when the head declares neither. The gate hands
// cpp-httplib the body's bytes and nothing beyond, and knows whether the body was read to its
// end: an answer sent before that closes the connection instead of reading the rest as the next
// request (request smuggling).
#include <cstddef>
#include <cstdint>
#include <optional>

namespace svc {

class BodyFraming {
public:
    static BodyFraming none() { return BodyFraming(Kind::Length, 0); }
    static BodyFraming length(uint64_t bytes) { return BodyFraming(Kind::Length, bytes); }
    static BodyFraming chunked() { return BodyFraming(Kind::Chunked, 0); }
    BodyFraming() : BodyFraming(Kind::Length, 0) {}

    // How many of these bytes (the connection's next ones) belong to the body: all of them
    // until its end, then none. Chunk sizes and line ends count as the body's bytes too.
    size_t take(const char* data, size_t size);
    bool complete() const { return state_ == State::Done; }
    // The chunked framing broke its grammar: the body has no end the gate can trust.
    bool malformed() const { return state_ == State::Malformed; }
    // Content-Length, when the head gave one.
    std::optional<uint64_t> declaredLength() const {
        return kind_ == Kind::Length ? std::optional<uint64_t>(declared_) : std::nullopt;
    }
    // The body's payload so far (chunk data without its framing).
    uint64_t payloadBytes() const { return payload_; }

private:
    enum class Kind { Length, Chunked };
    enum class State { Size, Extension, SizeLf, Data, DataCr, DataLf, LastCr, LastLf, Done, Malformed };
    BodyFraming(Kind kind, uint64_t declared);
    void step(char byte);

    Kind kind_;
    State state_;
    uint64_t declared_ = 0;
    uint64_t remaining_ = 0;  // of the declared length, or of the current chunk's data
    uint64_t payload_ = 0;
    int sizeDigits_ = 0;
};

}  // namespace svc
