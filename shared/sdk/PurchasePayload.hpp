#pragma once
// svclytics('purchase', payload) in the SDK (spec: "Purchase event payload"): checks the
// shop's payload before it is sent, so that the shop developer sees every problem in the
// console at once (the server would refuse the whole order for any one of them), and
// builds the body for POST {tracking_url}/events with the visitor's _svc_cid added.
#include <string>
#include <vector>

#include "core/Result.hpp"

namespace svc {

struct PurchaseCheck {
    std::vector<std::string> problems;  // "<path>: <what is wrong>", in payload order
    std::string orderId;                // when the payload had one
    std::string body;                   // the request body; empty when there are problems
};

class PurchasePayload {
public:
    static constexpr size_t kMaxLines = 500;  // the server's limit per order
    // payloadJson: JSON.stringify of the shop's payload. cid: the visitor's _svc_cid ("" to leave it out).
    static PurchaseCheck check(const std::string& payloadJson, const std::string& cid);
};

}  // namespace svc
