#include "tracking/EventParser.hpp"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>

#include "text/BoundedJson.hpp"
#include "text/Utf8.hpp"

namespace svc {
namespace {

// Ordered: unknown fields are reported in the order they were sent.
using Json = nlohmann::ordered_json;

constexpr std::string_view kEventTypes = "one of purchase, view, click, add-to-cart";
constexpr int64_t kMaxClientTimeMs = 9'007'199'254'740'991;  // Number.MAX_SAFE_INTEGER: what a browser can send exactly

// A quoted, JSON-escaped excerpt of outside text for messages: at most 64 bytes, cut at
// a character boundary, so that answers stay small and valid UTF-8 whatever was sent.
std::string excerpt(std::string_view text) {
    constexpr size_t kMaxBytes = 64;
    bool cut = text.size() > kMaxBytes;
    text = text.substr(0, utf8PrefixLength(text, kMaxBytes));
    std::string out = "\"";
    for (char c : text) {
        auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (byte < 0x20 || byte == 0x7F) {
            static constexpr char kHex[] = "0123456789abcdef";
            out += "\\u00";
            out += kHex[byte >> 4];
            out += kHex[byte & 0xF];
        } else {
            out += c;
        }
    }
    out += cut ? "...\"" : "\"";
    return out;
}

bool isPlainKey(std::string_view key) {
    if (key.empty()) return false;
    return std::all_of(key.begin(), key.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
}

// Paths read like the JavaScript that built the payload: products[2].amount; keys that
// are not plain names are bracketed and quoted, so no key can forge another path.
std::string member(const std::string& path, std::string_view key) {
    if (!isPlainKey(key)) return (path.empty() ? "$" : path) + "[" + excerpt(key) + "]";
    return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string element(const std::string& path, size_t index) { return path + "[" + std::to_string(index) + "]"; }

std::string shown(const std::string& path) { return path.empty() ? "$" : path; }

class Reporter {
public:
    Reporter(const EventLimits& limits, std::vector<EventProblem>& problems, size_t& count)
        : limits_(limits), problems_(problems), count_(count) {}

    void add(const std::string& path, std::string rule, std::string expected, const std::string& what) {
        ++count_;
        if (problems_.size() >= limits_.maxProblems) return;
        problems_.push_back({shown(path), std::move(rule), std::move(expected), shown(path) + ": " + what});
    }
    bool any() const { return count_ > 0; }
    size_t count() const { return count_; }
    // A syntax error makes what the first pass found beforehand meaningless.
    void clear() {
        problems_.clear();
        count_ = 0;
    }

private:
    const EventLimits& limits_;
    std::vector<EventProblem>& problems_;
    size_t& count_;
};

// First pass over the raw text, for what the DOM hides: the position of a syntax error,
// keys given twice (the DOM would silently keep one of them) and excessive nesting.
class StructureCheck : public nlohmann::json_sax<Json> {
public:
    StructureCheck(const EventLimits& limits, Reporter& reporter) : limits_(limits), reporter_(reporter) {}

    bool null() override { return scalar(); }
    bool boolean(bool) override { return scalar(); }
    bool number_integer(number_integer_t) override { return scalar(); }
    bool number_unsigned(number_unsigned_t) override { return scalar(); }
    bool number_float(number_float_t, const string_t&) override { return scalar(); }
    bool string(string_t&) override { return scalar(); }
    bool binary(binary_t&) override { return scalar(); }
    bool start_object(std::size_t) override { return open(true); }
    bool start_array(std::size_t) override { return open(false); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t& name) override {
        Frame& frame = frames_.back();
        frame.key = name;
        if (!frame.addKey(name)) {
            reporter_.add(member(frame.path, name), "duplicate-key", "each key once", "given more than once");
        }
        return true;
    }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&) override {
        syntaxErrorAt = position;
        return false;
    }

    std::optional<size_t> syntaxErrorAt;
    std::optional<std::string> tooDeepAt;

private:
    struct Frame {
        bool object = false;
        std::string path;
        // An event has about a dozen keys: a vector searched in place costs no allocation per
        // key; a set takes over for objects large enough for the search to matter.
        std::vector<std::string> fewKeys;
        std::set<std::string> manyKeys;
        std::string key;
        size_t count = 0;

        // False when the object already has this key.
        bool addKey(const std::string& name) {
            static constexpr size_t kLinearLimit = 32;
            if (fewKeys.size() < kLinearLimit) {
                if (std::find(fewKeys.begin(), fewKeys.end(), name) != fewKeys.end()) return false;
                fewKeys.push_back(name);
                return true;
            }
            if (std::find(fewKeys.begin(), fewKeys.end(), name) != fewKeys.end()) return false;
            return manyKeys.insert(name).second;
        }
    };

    // A value starts: counts array elements, so that paths of later containers are right.
    void advance() {
        if (!frames_.empty() && !frames_.back().object) ++frames_.back().count;
    }
    // The path of the value that just started (only built for containers and problems).
    std::string currentPath() const {
        if (frames_.empty()) return {};
        const Frame& frame = frames_.back();
        if (frame.object) return member(frame.path, frame.key);
        return element(frame.path, frame.count - 1);
    }
    bool scalar() {
        advance();
        return true;
    }
    bool open(bool object) {
        advance();
        std::string path = currentPath();
        if (frames_.size() >= limits_.maxDepth) {
            tooDeepAt = path;
            return false;
        }
        frames_.push_back({object, std::move(path), {}, {}, {}, 0});
        return true;
    }
    bool close() {
        frames_.pop_back();
        return true;
    }

    const EventLimits& limits_;
    Reporter& reporter_;
    std::vector<Frame> frames_;
};

class EventValidator {
public:
    EventValidator(const EventLimits& limits, Reporter& reporter) : limits_(limits), reporter_(reporter) {}

    std::optional<TrackingEvent> event(const Json& value, const std::string& path) {
        if (!value.is_object()) {
            reporter_.add(path, "type", "object", "must be an event object");
            return std::nullopt;
        }
        auto type = value.find("type");
        std::string typeName;
        if (type == value.end() || type->is_null()) {
            // svclytics('purchase', payload) sends the spec's payload as it is, without a type.
            if (!value.contains("orderid") && !value.contains("products")) {
                reporter_.add(member(path, "type"), "required", std::string(kEventTypes), "required");
                return std::nullopt;
            }
            typeName = "purchase";
        } else if (!type->is_string()) {
            reporter_.add(member(path, "type"), "type", std::string(kEventTypes), "must be a string");
            return std::nullopt;
        } else {
            typeName = type->get<std::string>();
        }
        if (typeName == "purchase") return purchase(value, path);
        if (auto widgetType = parseWidgetEventType(typeName)) return widgetEvent(value, path, *widgetType);
        reporter_.add(member(path, "type"), "enum", std::string(kEventTypes), excerpt(typeName) + " is not a known event type");
        return std::nullopt;
    }

private:
    std::optional<TrackingEvent> purchase(const Json& value, const std::string& path) {
        onlyFields(value, path, {"type", "customerid", "orderid", "products", "cid"});
        PurchaseEvent purchase;
        if (auto customer = text(value, path, "customerid", true); customer && *customer != "anonymous") {
            // The spec fixes the value; anything else may be personal data, which is never stored.
            reporter_.add(member(path, "customerid"), "equals", "\"anonymous\"", "must be \"anonymous\" (no personal data)");
        }
        purchase.orderId = text(value, path, "orderid", true).value_or("");
        purchase.cid = text(value, path, "cid", false);
        purchase.lines = orderLines(value, path);
        return purchase;
    }

public:
    // The shop's word on an order (PUT /orders/{orderid}).
    void confirmation(const Json& value, OrderConfirmation& out) {
        onlyFields(value, "", {"status", "products", "cid", "claim"});
        auto status = text(value, "", "status", true);
        if (status && *status != "confirmed" && *status != "rejected") {
            reporter_.add("status", "enum", "one of confirmed, rejected", excerpt(*status) + " is not a status");
            return;
        }
        auto given = [&](const char* key) {
            auto found = value.find(key);
            return found != value.end() && !found->is_null();
        };
        if (!status) return;  // what else is required depends on it
        if (status == "rejected") {
            out.source = ClaimSource::ShopRejected;
            for (const char* key : {"products", "claim", "cid"}) {
                if (given(key)) reporter_.add(key, "forbidden", "only status with \"rejected\"", "not allowed with status \"rejected\"");
            }
            return;
        }
        out.source = ClaimSource::ShopConfirmed;
        if (given("claim")) {
            out.claim = integer(value, "", "claim", true, 1, std::numeric_limits<int64_t>::max());
            if (given("products")) reporter_.add("products", "forbidden", "either products or claim", "not allowed with claim");
            if (given("cid")) reporter_.add("cid", "forbidden", "no cid with claim (the claim names its visitor)", "not allowed with claim");
            return;
        }
        out.lines = orderLines(value, "");
        out.cid = text(value, "", "cid", false);
    }

private:
    // products[]: the lines of a purchase or of the shop's confirmation, each and together
    // within the money limits.
    std::vector<OrderLine> orderLines(const Json& value, const std::string& path) {
        std::vector<OrderLine> lines;
        std::string linesPath = member(path, "products");
        auto products = value.find("products");
        if (products == value.end() || products->is_null()) {
            reporter_.add(linesPath, "required", "array of order lines", "required");
        } else if (!products->is_array()) {
            reporter_.add(linesPath, "type", "array of order lines", "must be an array");
        } else if (products->empty()) {
            reporter_.add(linesPath, "minItems", "at least 1 order line", "must list at least one order line");
        } else if (products->size() > limits_.maxOrderLines) {
            reporter_.add(linesPath, "maxItems", "at most " + std::to_string(limits_.maxOrderLines) + " order lines",
                          "has " + std::to_string(products->size()) + " order lines");
        } else {
            size_t problemsBefore = reporter_.count();
            for (size_t i = 0; i < products->size(); ++i) {
                if (auto line = orderLine((*products)[i], element(linesPath, i))) lines.push_back(std::move(*line));
            }
            // Only when every line is fine: a bad line is already named, the total would repeat it.
            if (reporter_.count() == problemsBefore) orderTotal(lines, linesPath);
        }
        return lines;
    }

    void orderTotal(const std::vector<OrderLine>& lines, const std::string& path) {
        std::optional<Cents> total = Cents(0);
        for (const auto& line : lines) {
            auto gross = line.price.times(line.amount);
            total = gross && total ? total->plus(*gross) : std::nullopt;
        }
        if (total && *total <= limits_.maxOrderTotal) return;
        reporter_.add(path, "maximum", "an order total (the sum of price x amount) of at most " + limits_.maxOrderTotal.text() + " cents",
                      "the order total is " + (total ? total->text() : "more than " + Cents::max().text()) +
                          " cents, above the limit of " + limits_.maxOrderTotal.text() + " cents");
    }

    std::optional<OrderLine> orderLine(const Json& value, const std::string& path) {
        if (!value.is_object()) {
            reporter_.add(path, "type", "object with sku, amount, price", "must be an order line object");
            return std::nullopt;
        }
        onlyFields(value, path, {"sku", "amount", "price"});
        OrderLine line;
        line.sku = text(value, path, "sku", true).value_or("");
        auto amount = integer(value, path, "amount", true, 1, limits_.maxAmount);
        auto price = integer(value, path, "price", true, 0, limits_.maxPrice);
        line.amount = amount.value_or(0);
        line.price = price.value_or(0);
        if (amount && price) {
            // Each within its limit, their product need not be: checked, never wrapped. Its
            // commission at the highest rate a contract can have (100 %) must fit too; Cents::share
            // divides first, so it does whenever the line total does.
            auto gross = line.price.times(line.amount);
            bool fits = gross && *gross <= limits_.maxOrderTotal && gross->share(10000);
            if (!fits) {
                reporter_.add(path, "maximum", "price x amount of at most " + limits_.maxOrderTotal.text() + " cents",
                              "price x amount is " + (gross ? gross->text() : "more than " + Cents::max().text()) +
                                  " cents, above the limit of " + limits_.maxOrderTotal.text() + " cents");
            }
        }
        return line;
    }

    std::optional<TrackingEvent> widgetEvent(const Json& value, const std::string& path, WidgetEventType type) {
        onlyFields(value, path, {"type", "cid", "sid", "widget", "touchpoint", "sku", "setId", "testGroup", "variant", "time"});
        WidgetEvent event;
        event.type = type;
        event.cid = text(value, path, "cid", true).value_or("");
        event.sid = text(value, path, "sid", false);
        if (auto widget = text(value, path, "widget", true)) {
            auto parsed = parseWidgetType(*widget);
            // SET-Compose exists only in demo mode, which earns nothing and is not tracked.
            if (!parsed || *parsed == WidgetType::SetCompose) {
                reporter_.add(member(path, "widget"), "enum", "one of SET, SIMILAR, SET-Custom", excerpt(*widget) + " is not a tracked widget type");
            } else {
                event.widget = *parsed;
            }
        }
        if (auto touchpoint = text(value, path, "touchpoint", true)) {
            if (auto parsed = parseTouchpoint(*touchpoint)) {
                event.touchpoint = *parsed;
            } else {
                reporter_.add(member(path, "touchpoint"), "enum", "one of product, cart-layer, cart, content, category, search",
                              excerpt(*touchpoint) + " is not a touchpoint");
            }
        }
        event.setId = text(value, path, "setId", false);
        // A click or add-to-cart is always on one product; a custom set's view may name only the set.
        auto setId = value.find("setId");
        bool skuRequired = type != WidgetEventType::View || setId == value.end() || setId->is_null();
        event.sku = text(value, path, "sku", skuRequired);
        event.testGroup = text(value, path, "testGroup", false);
        event.variant = text(value, path, "variant", false);
        event.clientTimeMs = integer(value, path, "time", false, 0, kMaxClientTimeMs);
        return event;
    }

    void onlyFields(const Json& object, const std::string& path, std::initializer_list<std::string_view> allowed) {
        for (const auto& [key, ignored] : object.items()) {
            if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
            std::string expected = "one of";
            for (std::string_view name : allowed) expected += (expected.size() > 6 ? ", " : " ") + std::string(name);
            reporter_.add(member(path, key), "unknown-field", expected, "unknown field");
        }
    }

    // Ids, SKUs and labels: non-empty strings of bounded size without control characters
    // (they end up in CSV ledgers and logs). Absent or null optional fields are nullopt.
    std::optional<std::string> text(const Json& object, const std::string& path, std::string_view key, bool required) {
        std::string fieldPath = member(path, key);
        std::string expected = "string of 1-" + std::to_string(limits_.maxTextBytes) + " bytes without control characters";
        auto found = object.find(std::string(key));
        if (found == object.end() || found->is_null()) {
            if (required) reporter_.add(fieldPath, "required", expected, "required");
            return std::nullopt;
        }
        if (!found->is_string()) {
            reporter_.add(fieldPath, "type", expected, "must be a string, not " + std::string(found->type_name()));
            return std::nullopt;
        }
        const auto& value = found->get_ref<const std::string&>();
        if (value.empty()) {
            reporter_.add(fieldPath, "minLength", expected, "must not be empty");
            return std::nullopt;
        }
        if (value.size() > limits_.maxTextBytes) {
            reporter_.add(fieldPath, "maxLength", expected, "has " + std::to_string(value.size()) + " bytes");
            return std::nullopt;
        }
        bool control = std::any_of(value.begin(), value.end(), [](char c) {
            auto byte = static_cast<unsigned char>(c);
            return byte < 0x20 || byte == 0x7F;
        });
        if (control) {
            reporter_.add(fieldPath, "pattern", expected, "contains a control character");
            return std::nullopt;
        }
        return value;
    }

    std::optional<int64_t> integer(const Json& object, const std::string& path, std::string_view key, bool required,
                                   int64_t minimum, int64_t maximum) {
        std::string fieldPath = member(path, key);
        std::string expected = "integer from " + std::to_string(minimum) + " to " + std::to_string(maximum);
        auto found = object.find(std::string(key));
        if (found == object.end() || found->is_null()) {
            if (required) reporter_.add(fieldPath, "required", expected, "required");
            return std::nullopt;
        }
        if (found->is_number_unsigned()) {
            // Every non-negative JSON integer arrives here, also those beyond int64.
            auto value = found->get<uint64_t>();
            if (value > static_cast<uint64_t>(maximum)) {
                reporter_.add(fieldPath, "maximum", expected, "is above " + std::to_string(maximum));
                return std::nullopt;
            }
            if (static_cast<int64_t>(value) < minimum) {
                reporter_.add(fieldPath, "minimum", expected, "is below " + std::to_string(minimum));
                return std::nullopt;
            }
            return static_cast<int64_t>(value);
        }
        if (found->is_number_integer()) {  // negative
            auto value = found->get<int64_t>();
            if (value < minimum) {
                reporter_.add(fieldPath, "minimum", expected, "is below " + std::to_string(minimum));
                return std::nullopt;
            }
            return value;
        }
        // 19.99, 2.0, 1e3 and "3" are refused alike: prices are integer cents, amounts whole units.
        reporter_.add(fieldPath, "type", expected,
                      std::string("must be an integer, not ") + (found->is_number_float() ? "a decimal number" : found->type_name()));
        return std::nullopt;
    }

    const EventLimits& limits_;
    Reporter& reporter_;
};

// Blank bodies, syntax errors (with their position), excessive nesting and keys given twice are
// found before the DOM is built; what comes back is the body's object, or nothing (with problems).
std::optional<Json> readObject(std::string_view body, const EventLimits& limits, Reporter& reporter) {
    bool blank = std::all_of(body.begin(), body.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; });
    if (blank) {
        reporter.add("", "required", "a JSON object", "the body is empty");
        return std::nullopt;
    }
    StructureCheck check(limits, reporter);
    (void)Json::sax_parse(body, &check);
    if (check.syntaxErrorAt) {
        reporter.clear();
        reporter.add("", "syntax", "JSON text", "not valid JSON (at byte " + std::to_string(*check.syntaxErrorAt) + ")");
        return std::nullopt;
    }
    if (check.tooDeepAt) {
        reporter.clear();
        reporter.add(*check.tooDeepAt, "depth", "at most " + std::to_string(limits.maxDepth) + " levels of nesting", "nested too deeply");
        return std::nullopt;
    }
    auto read = BoundedJson::parseOrdered(body, "body");
    if (!read) {  // the first pass accepted the syntax and depth: only a body over JsonLimits' size (routes cap far below) ends here
        reporter.add("", "syntax", "JSON text", read.error().message);
        return std::nullopt;
    }
    if (!read->is_object()) {
        reporter.add("", "type", "a JSON object", "must be a JSON object, not " + std::string(read->type_name()));
        return std::nullopt;
    }
    return std::move(*read);
}

}  // namespace

ParsedEvents parseEvents(std::string_view body, const EventLimits& limits) {
    ParsedEvents out;
    Reporter reporter(limits, out.problems, out.problemCount);
    auto json = readObject(body, limits, reporter);
    if (!json) return out;
    EventValidator validator(limits, reporter);
    auto batch = json->find("events");
    if (batch == json->end()) {
        if (auto event = validator.event(*json, "")) out.events.events.push_back(std::move(*event));
    } else {
        out.events.batch = true;
        for (const auto& [key, ignored] : json->items()) {
            if (key != "events") reporter.add(member("", key), "unknown-field", "only events in a batch", "unknown field");
        }
        std::string expected = "array of 1-" + std::to_string(limits.maxBatchEvents) + " events";
        if (!batch->is_array()) {
            reporter.add("events", "type", expected, "must be an array");
        } else if (batch->empty()) {
            reporter.add("events", "minItems", expected, "must hold at least one event");
        } else if (batch->size() > limits.maxBatchEvents) {
            reporter.add("events", "maxItems", expected, "has " + std::to_string(batch->size()) + " events");
        } else {
            for (size_t i = 0; i < batch->size(); ++i) {
                if (auto event = validator.event((*batch)[i], element("events", i))) out.events.events.push_back(std::move(*event));
            }
        }
    }
    if (reporter.any()) out.events.events.clear();
    return out;
}

ParsedConfirmation parseOrderConfirmation(std::string_view body, const EventLimits& limits) {
    ParsedConfirmation out;
    Reporter reporter(limits, out.problems, out.problemCount);
    auto json = readObject(body, limits, reporter);
    if (!json) return out;
    EventValidator(limits, reporter).confirmation(*json, out.confirmation);
    return out;
}

Error eventProblemsError(const std::vector<EventProblem>& problems, size_t problemCount) {
    if (problems.empty()) return Error::invalidArgument("$: invalid event");
    std::string message = problems.front().message;
    if (problemCount > 1) {
        size_t more = problemCount - 1;
        message += " (and " + std::to_string(more) + (more == 1 ? " more problem)" : " more problems)");
    }
    return Error::invalidArgument(std::move(message));
}

}  // namespace svc
