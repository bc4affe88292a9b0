#include "tracking/LedgerEntry.hpp"

namespace svc {

const char* ledgerKindName(LedgerKind kind) {
    switch (kind) {
        case LedgerKind::Return: return "return";
        case LedgerKind::Reversal: return "reversal";
        case LedgerKind::Sale: break;
    }
    return "sale";
}

}  // namespace svc
