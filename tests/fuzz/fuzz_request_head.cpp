// Every byte an anonymous client sends before svc's routes see it (docs/adr/0057, 0069): the
// connection gate's head parser and body framing, and the forwarding headers a trusted proxy
// passes on. For any input: the head ends where findEnd says, a parsed head's framing never
// takes more bytes than it is given nor counts more payload than it took, a finished body
// takes nothing more, and the client address is the peer or an address that parses.
#include <cstdint>
#include <string>
#include <string_view>

#include "http/BodyFraming.hpp"
#include "http/RequestHead.hpp"
#include "net/IpAddress.hpp"
#include "net/TrustedProxies.hpp"

namespace {

void check(bool condition) {
    if (!condition) __builtin_trap();
}

void fuzzForwarding(std::string_view input) {
    static const svc::TrustedProxies proxies = *svc::TrustedProxies::parse({"10.0.0.0/8", "::1"});
    size_t split = input.find('\n');
    std::string_view forwardedFor = input.substr(0, split);
    std::string_view forwarded = split == std::string_view::npos ? std::string_view() : input.substr(split + 1);
    for (const char* peer : {"10.1.2.3", "::1", "203.0.113.9"}) {
        std::string client = proxies.clientAddress(peer, forwardedFor, forwarded);
        check(client == peer || svc::IpAddress::parse(client).has_value());
        if (!proxies.trusts(peer)) check(client == peer);
        auto proto = proxies.forwardedProto(peer, forwardedFor, forwarded);
        check(!proto || *proto == "http" || *proto == "https");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view input(reinterpret_cast<const char*>(data), size);
    fuzzForwarding(input);

    size_t skipped = svc::RequestHead::leadingEmptyLines(input);
    check(skipped <= input.size());
    std::string_view stream = input.substr(skipped);
    size_t end = svc::RequestHead::findEnd(stream);
    if (end == std::string_view::npos) return 0;
    check(end <= stream.size());
    auto head = svc::RequestHead::parse(stream.substr(0, end));
    if (!head) {
        check(!head.error().message.empty());
        return 0;
    }
    svc::BodyFraming framing = head->framing();
    std::string_view body = stream.substr(end);
    size_t taken = 0;
    // In pieces of growing size, as reads from a socket arrive.
    for (size_t piece = 1; taken < body.size() && !framing.complete() && !framing.malformed(); piece = piece * 2 + 1) {
        size_t offered = std::min(piece, body.size() - taken);
        size_t took = framing.take(body.data() + taken, offered);
        check(took <= offered);
        if (took == 0) break;
        taken += took;
    }
    check(framing.payloadBytes() <= taken || (framing.declaredLength() && framing.payloadBytes() <= *framing.declaredLength()));
    if (framing.complete()) {
        check(framing.take("x", 1) == 0);
        if (auto declared = framing.declaredLength()) check(framing.payloadBytes() == *declared);
    }
    return 0;
}
