#include "tracking/Attributor.hpp"

#include <chrono>
#include <map>

#include "tracking/AttributionRule.hpp"
#include "tracking/Commission.hpp"

namespace svc {
namespace {

constexpr size_t kPurchasesPerPass = 500;
constexpr int64_t kSecondsPerDay = 86400;

}  // namespace

Attributor::~Attributor() { stop(); }

void Attributor::start(int intervalMs) {
    thread_ = std::thread([this, intervalMs] {
        std::unique_lock lock(stateMutex_);
        while (!stopping_) {
            lock.unlock();
            (void)catchUp();  // a failed pass is retried by the next; nothing is half booked
            lock.lock();
            wake_.wait_for(lock, std::chrono::milliseconds(intervalMs), [this] { return stopping_; });
        }
    });
}

void Attributor::stop() {
    {
        std::lock_guard lock(stateMutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

Status Attributor::catchUp() {
    std::lock_guard pass(passMutex_);
    catalog_.clear();
    while (true) {
        auto pending = ledger_.pendingPurchases();
        if (!pending) return pending.error();
        if (*pending == 0) return {};
        if (auto status = bookPending(); !status) return status;
    }
}

Status Attributor::bookPending() {
    auto purchases = ledger_.purchasesToAttribute(kPurchasesPerPass);
    if (!purchases) return purchases.error();
    if (purchases->empty()) return {};
    std::map<int64_t, Tenant> tenants;
    std::vector<LedgerEntry> entries;
    for (const auto& purchase : *purchases) {
        auto tenant = tenants.find(purchase.tenantId);
        if (tenant == tenants.end()) {
            auto found = tenants_.findById(purchase.tenantId);
            if (!found) return found.error();
            Tenant contract;
            contract.id = purchase.tenantId;
            if (*found) contract = **found;
            tenant = tenants.emplace(purchase.tenantId, contract).first;
        }
        auto rates = CommissionRates::fromText(tenant->second.commissionRates);
        if (!rates) return Error::internal("tenant " + std::to_string(purchase.tenantId) + ": " + rates.error().message);
        int64_t windowSeconds = tenant->second.attributionWindowDays * kSecondsPerDay;

        std::vector<Interaction> interactions;
        if (!purchase.cid.empty()) {
            auto found = ledger_.interactions(purchase.tenantId, purchase.cid, purchase.sequence, purchase.receivedAt - windowSeconds);
            if (!found) return found.error();
            interactions = std::move(*found);
            for (auto& interaction : interactions) interaction.mainSku = catalog_.mainSkuOf(purchase.tenantId, interaction.sku);
        }
        AttributionRule rule(windowSeconds, [&](const std::string& setId, const std::string& mainSku) {
            return catalog_.setContains(purchase.tenantId, setId, mainSku);
        });
        for (size_t i = 0; i < purchase.lines.size(); ++i) {
            const OrderLine& line = purchase.lines[i];
            LedgerEntry entry;
            entry.kind = LedgerKind::Sale;
            entry.tenantId = purchase.tenantId;
            entry.orderEvent = purchase.sequence;
            entry.orderId = purchase.orderId;
            entry.line = static_cast<int64_t>(i);
            entry.sku = line.sku;
            entry.mainSku = catalog_.mainSkuOf(purchase.tenantId, line.sku);
            entry.amount = line.amount;
            entry.price = line.price;
            entry.orderedAt = purchase.receivedAt;
            entry.bookedAt = purchase.receivedAt;
            auto attribution = rule.attribute(line.sku, entry.mainSku, purchase.sequence, purchase.receivedAt, interactions);
            if (attribution) {
                const Interaction& why = *attribution->interaction;
                entry.attributed = true;
                entry.reason = attribution->reason;
                entry.interaction = why.sequence;
                entry.interactionType = widgetEventTypeName(why.type);
                entry.widget = widgetTypeName(why.widget);
                entry.touchpoint = touchpointName(why.touchpoint);
                entry.setId = why.setId;
                entry.testGroup = why.testGroup;
                entry.variant = why.variant;
                entry.interactionAt = why.receivedAt;
                entry.rateBasisPoints = rates->basisPointsFor(why.widget);
                // Validation keeps price and amount small enough; refuse rather than wrap if not.
                auto commission = lineCommission(line.price, line.amount, entry.rateBasisPoints);
                if (!commission) return Error::internal("order " + purchase.orderId + " line " + std::to_string(i) + ": " +
                                                        commission.error().message);
                entry.commission = *commission;
                entry.revenue = line.price * line.amount;
            }
            entries.push_back(std::move(entry));
        }
    }
    return ledger_.bookSales(entries, purchases->back().sequence);
}

Result<ReturnOutcome> Attributor::bookReturn(int64_t tenantId, const std::string& orderId, const ReturnRequest& request) {
    if (auto status = catchUp(); !status) return status.error();
    std::lock_guard pass(passMutex_);
    auto exists = ledger_.orderExists(tenantId, orderId);
    if (!exists) return exists.error();
    if (!*exists) return Error::notFound("orderid: no order '" + orderId + "' was reported");
    auto booked = ledger_.orderEntries(tenantId, orderId);
    if (!booked) return booked.error();
    for (const auto& entry : *booked) {
        if (entry.kind == LedgerKind::Return && entry.returnId == request.returnId) return ReturnOutcome{true, {}};
    }
    // Units still kept per line: sold minus returned so far.
    std::vector<const LedgerEntry*> sales;
    std::map<int64_t, int64_t> kept;
    for (const auto& entry : *booked) {
        if (entry.kind == LedgerKind::Sale) sales.push_back(&entry);
        kept[entry.line] += entry.amount;
    }
    // What comes back of each line: a cancellation takes everything kept; otherwise each
    // requested SKU is taken from its lines in order.
    std::map<int64_t, int64_t> returned;
    if (request.cancel) {
        for (const LedgerEntry* sale : sales) {
            if (kept[sale->line] > 0) returned[sale->line] = kept[sale->line];
        }
    } else {
        for (size_t i = 0; i < request.lines.size(); ++i) {
            const auto& wanted = request.lines[i];
            std::string field = "lines[" + std::to_string(i) + "]";
            int64_t left = wanted.amount;
            bool inOrder = false;
            for (const LedgerEntry* sale : sales) {
                if (sale->sku != wanted.sku) continue;
                inOrder = true;
                int64_t available = kept[sale->line] - returned[sale->line];
                int64_t take = std::min(left, available);
                returned[sale->line] += take;
                left -= take;
            }
            if (!inOrder) return Error::invalidArgument(field + ".sku: '" + wanted.sku + "' is not in order '" + orderId + "'");
            if (left > 0) {
                return Error::invalidArgument(field + ".amount: " + std::to_string(wanted.amount) + " returned, but only " +
                                              std::to_string(wanted.amount - left) + " of '" + wanted.sku + "' are still kept");
            }
        }
    }
    ReturnOutcome outcome;
    int64_t now = clock_.nowSeconds();
    for (const LedgerEntry* sale : sales) {
        auto back = returned.find(sale->line);
        if (back == returned.end() || back->second == 0) continue;
        LedgerEntry entry = *sale;
        entry.kind = LedgerKind::Return;
        entry.amount = -back->second;
        entry.bookedAt = now;
        entry.returnId = request.returnId;
        if (sale->attributed) {
            auto reversal = commissionReversal(sale->price, kept[sale->line], back->second, sale->rateBasisPoints);
            if (!reversal) return reversal.error();
            entry.commission = -*reversal;
            entry.revenue = -sale->price * back->second;
        } else {
            entry.commission = 0;
            entry.revenue = 0;
        }
        outcome.entries.push_back(std::move(entry));
    }
    if (outcome.entries.empty()) return Error::invalidArgument("lines: nothing of order '" + orderId + "' is left to return");
    auto stored = ledger_.bookReturn(tenantId, request.returnId, outcome.entries);
    if (!stored) return stored.error();
    if (!*stored) return ReturnOutcome{true, {}};
    return outcome;
}

}  // namespace svc
