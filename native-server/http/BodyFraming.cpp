#include "http/BodyFraming.hpp"

#include <algorithm>

namespace svc {
namespace {

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// 15 hex digits are 2^60 bytes: more than any body, and no overflow while reading them.
constexpr int kMaxSizeDigits = 15;

}  // namespace

BodyFraming::BodyFraming(Kind kind, uint64_t declared) : kind_(kind), declared_(declared) {
    if (kind == Kind::Length) {
        remaining_ = declared;
        state_ = declared == 0 ? State::Done : State::Data;
    } else {
        state_ = State::Size;
    }
}

size_t BodyFraming::take(const char* data, size_t size) {
    size_t used = 0;
    while (used < size && state_ != State::Done && state_ != State::Malformed) {
        if (state_ == State::Data) {
            // Payload in bulk; framing bytes one at a time below.
            size_t run = static_cast<size_t>(std::min<uint64_t>(remaining_, size - used));
            used += run;
            remaining_ -= run;
            payload_ += run;
            if (remaining_ == 0) state_ = kind_ == Kind::Length ? State::Done : State::DataCr;
            continue;
        }
        step(data[used++]);
    }
    return used;
}

// The chunked grammar of RFC 9112 7.1 without trailer fields (cpp-httplib takes none either):
// size in hex, optional extensions, CRLF, data, CRLF; "0" CRLF CRLF ends the body.
void BodyFraming::step(char byte) {
    switch (state_) {
        case State::Size: {
            int digit = hexValue(byte);
            if (digit >= 0 && sizeDigits_ < kMaxSizeDigits) {
                remaining_ = remaining_ * 16 + static_cast<uint64_t>(digit);
                ++sizeDigits_;
            } else if (sizeDigits_ > 0 && byte == ';') {
                state_ = State::Extension;
            } else if (sizeDigits_ > 0 && byte == '\r') {
                state_ = State::SizeLf;
            } else {
                state_ = State::Malformed;
            }
            return;
        }
        case State::Extension:
            if (byte == '\r') state_ = State::SizeLf;
            else if (byte == '\n') state_ = State::Malformed;
            return;
        case State::SizeLf:
            if (byte != '\n') state_ = State::Malformed;
            else state_ = remaining_ == 0 ? State::LastCr : State::Data;
            sizeDigits_ = 0;
            return;
        case State::DataCr: state_ = byte == '\r' ? State::DataLf : State::Malformed; return;
        case State::DataLf: state_ = byte == '\n' ? State::Size : State::Malformed; return;
        case State::LastCr: state_ = byte == '\r' ? State::LastLf : State::Malformed; return;
        case State::LastLf: state_ = byte == '\n' ? State::Done : State::Malformed; return;
        case State::Data:
        case State::Done:
        case State::Malformed: return;
    }
}

}  // namespace svc
