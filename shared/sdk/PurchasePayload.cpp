#include "sdk/PurchasePayload.hpp"

#include "sdk/WidgetEventLog.hpp"
#include "text/JsonReader.hpp"
#include "text/JsonWriter.hpp"

namespace svc {
namespace {

// The value as a short excerpt for messages (what the shop passed).
std::string shown(const JsonValue& value) {
    switch (value.kind()) {
        case JsonValue::Kind::Null: return "null";
        case JsonValue::Kind::Bool: return value.boolean() ? "true" : "false";
        case JsonValue::Kind::Number: return value.text();
        case JsonValue::Kind::String: {
            std::string text = value.text().size() > 40 ? value.text().substr(0, 40) + "..." : value.text();
            std::string quoted;
            appendJsonString(quoted, text);
            return quoted;
        }
        case JsonValue::Kind::Array: return "an array";
        case JsonValue::Kind::Object: return "an object";
    }
    return "?";
}

class Checker {
public:
    std::vector<std::string> problems;

    // A required string the server accepts (1-200 bytes, no control characters).
    const std::string* text(const JsonValue& object, const char* key, const std::string& path, const char* hint) {
        const JsonValue* value = object.find(key);
        std::string at = path + key;
        if (!value) {
            problems.push_back(at + ": missing (" + hint + ")");
            return nullptr;
        }
        if (!value->isString()) {
            problems.push_back(at + ": must be a string (" + hint + "), got " + shown(*value));
            return nullptr;
        }
        if (!WidgetEventLog::acceptableText(value->text())) {
            problems.push_back(at + ": must be 1-200 characters without control characters");
            return nullptr;
        }
        return &value->text();
    }

    std::optional<int64_t> integer(const JsonValue& object, const char* key, const std::string& path, int64_t minimum,
                                   int64_t maximum, const char* hint) {
        const JsonValue* value = object.find(key);
        std::string at = path + key;
        if (!value) {
            problems.push_back(at + ": missing (" + hint + ")");
            return std::nullopt;
        }
        if (!value->isInteger() || *value->integer() < minimum || *value->integer() > maximum) {
            problems.push_back(at + ": must be " + hint + ", got " + shown(*value));
            return std::nullopt;
        }
        return value->integer();
    }
};

}  // namespace

PurchaseCheck PurchasePayload::check(const std::string& payloadJson, const std::string& cid) {
    PurchaseCheck result;
    auto payload = JsonReader::parse(payloadJson);
    if (!payload || !payload->isObject()) {
        result.problems.push_back("payload: must be an object {customerid, orderid, products}");
        return result;
    }
    Checker checker;
    const std::string* customer = checker.text(*payload, "customerid", "", "the constant \"anonymous\"");
    if (customer && *customer != "anonymous") {
        checker.problems.push_back("customerid: must be \"anonymous\" (no personal data), got " + shown(*payload->find("customerid")));
    }
    const std::string* orderId = checker.text(*payload, "orderid", "", "unique per order");
    if (orderId) result.orderId = *orderId;

    std::string lines;
    const JsonValue* products = payload->find("products");
    if (!products || !products->isArray() || products->items().empty()) {
        checker.problems.push_back("products: must be a non-empty array of order lines {sku, amount, price}");
    } else if (products->items().size() > kMaxLines) {
        checker.problems.push_back("products: at most " + std::to_string(kMaxLines) + " order lines");
    } else {
        for (size_t i = 0; i < products->items().size(); ++i) {
            const JsonValue& line = products->items()[i];
            std::string path = "products[" + std::to_string(i) + "].";
            if (!line.isObject()) {
                checker.problems.push_back("products[" + std::to_string(i) + "]: must be an object {sku, amount, price}");
                continue;
            }
            const std::string* sku = checker.text(line, "sku", path, "the SKU as a string, exactly as in the product feed");
            auto amount = checker.integer(line, "amount", path, 1, 1'000'000, "an integer number of units (1 or more)");
            auto price = checker.integer(line, "price", path, 0, 1'000'000'000'000,
                                         "an integer gross unit price in cents (e.g. 1999 for 19.99)");
            if (!sku || !amount || !price) continue;
            lines += lines.empty() ? "{\"sku\":" : ",{\"sku\":";
            appendJsonString(lines, *sku);
            lines += ",\"amount\":" + std::to_string(*amount) + ",\"price\":" + std::to_string(*price) + "}";
        }
    }
    result.problems = std::move(checker.problems);
    if (!result.problems.empty()) return result;

    std::string body = "{\"type\":\"purchase\",\"customerid\":\"anonymous\",\"orderid\":";
    appendJsonString(body, result.orderId);
    if (WidgetEventLog::acceptableText(cid)) {
        body += ",\"cid\":";
        appendJsonString(body, cid);
    }
    result.body = body + ",\"products\":[" + lines + "]}";
    return result;
}

}  // namespace svc
