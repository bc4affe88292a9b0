#include "operator/OperatorAccounts.hpp"

#include "tenant/SecretHasher.hpp"
#include "text/StringUtil.hpp"

namespace svc {

namespace {
constexpr const char* kBusyMessage = "the service is busy checking passwords: try again in a moment";

// The hash gate was full: nothing was counted, and asking again in a second may get in.
Error busy() { return Error::unavailable(kBusyMessage).retryAfter(1).withId("svc.limit.306"); }

// Failed sign-ins of one client address: 20 at once, then one more for every 45 s that pass.
constexpr TokenBucketLimit kAddressFailures{static_cast<double>(OperatorAccounts::kMaxFailuresPerAddress) / OperatorAccounts::kLockSeconds,
                                            OperatorAccounts::kMaxFailuresPerAddress};

std::string addressKey(const std::string& clientAddress) { return "sign-in/address/" + clientAddress; }
}

OperatorAccounts::OperatorAccounts(OperatorStore& store, RateLimitStore& addressLimits, const Clock& clock, PasswordCost cost,
                                   PasswordHashLimits hashLimits)
    : store_(&store), addressLimits_(&addressLimits), clock_(clock), hasher_(cost), gate_(hashLimits) {
    auto dummy = hasher_.hash(randomSecret());
    if (dummy) unknownAccountHash_ = *dummy;
}

Status OperatorAccounts::validEmail(const std::string& email, const std::string& field) {
    size_t at = email.find('@');
    bool plain = email.find_first_of(" \t\r\n<>\"") == std::string::npos;
    if (email.empty()) return Error::invalidArgument(field + ": required");
    if (email.size() > 254 || !plain || at == std::string::npos || at == 0 || at + 1 >= email.size() ||
        email.find('@', at + 1) != std::string::npos) {
        return Error::invalidArgument(field + ": '" + email + "' is not an e-mail address such as ops@example.com");
    }
    return {};
}

Result<OperatorAccount> OperatorAccounts::createOperator(const std::string& email, const std::string& password) {
    std::string address(trim(email));
    if (auto valid = validEmail(address, "email"); !valid) return valid.error();
    if (auto valid = PasswordHasher::validNew(password, "password"); !valid) return valid.error();
    auto hash = hashNew(password);
    if (!hash) return hash.error();
    return store_->createOperator(address, *hash, clock_.nowSeconds());
}

Result<std::string> OperatorAccounts::hashNew(const std::string& password) {
    auto pass = gate_.enter();
    if (!pass.entered()) return busy();
    return hasher_.hash(password);
}

Error OperatorAccounts::lockedError(int64_t until, int64_t retryAfterSeconds) const {
    int64_t minutes = (until - clock_.nowSeconds() + 59) / 60;
    if (minutes < 1) minutes = 1;
    // An account's Retry-After is the whole lock period, as the console has always been told, even
    // when less of it is left; an address's is the time until its next attempt.
    return Error::rateLimited("too many failed sign-ins: signing in is locked for " + std::to_string(minutes) +
                                  (minutes == 1 ? " minute" : " minutes"),
                              retryAfterSeconds)
        .withId("svc.limit.305");
}

Result<OperatorAccounts::AddressAttempt> OperatorAccounts::reserveAddressAttempt(const std::string& clientAddress) {
    auto taken = addressLimits_->take(addressKey(clientAddress), 1, kAddressFailures, clock_.nowMillis());
    if (!taken) return taken.error();
    if (!taken->taken) return AddressAttempt{false, clock_.nowSeconds() + taken->retryAfterSeconds, false};
    return AddressAttempt{true, 0, taken->left < 1};
}

void OperatorAccounts::releaseAddressAttempt(const std::string& clientAddress) {
    // Not given back when the store cannot be reached: the address keeps one attempt counted too many,
    // which only delays it; refusing the sign-in for that would turn a blip into a lock-out.
    (void)addressLimits_->giveBack(addressKey(clientAddress), 1, kAddressFailures, clock_.nowMillis());
}

Result<bool> OperatorAccounts::verifyReserved(const OperatorAccount& account, const std::string& password, const std::string& clientAddress,
                                              const AddressAttempt& addressAttempt) {
    int64_t now = clock_.nowSeconds();
    // Counted before the hash: concurrent guesses cannot all read the same old count.
    auto reservation = store_->reserveSignIn(account.id, now, kMaxFailures, now + kLockSeconds);
    if (!reservation) {
        releaseAddressAttempt(clientAddress);
        return reservation.error();
    }
    if (!reservation->allowed) {
        releaseAddressAttempt(clientAddress);  // refused unverified: not a guess from this address
        return lockedError(reservation->lockedUntil);
    }
    bool right = false;
    {
        auto pass = gate_.enter();
        if (!pass.entered()) {
            (void)store_->releaseSignIn(account.id);
            releaseAddressAttempt(clientAddress);
            return busy();
        }
        right = PasswordHasher::verify(password, account.passwordHash);
    }
    if (right) {
        releaseAddressAttempt(clientAddress);
        return true;
    }
    if (reservation->attempt >= kMaxFailures) {
        if (auto status = store_->lockSignIn(account.id, now + kLockSeconds); !status) return status.error();
        return lockedError(now + kLockSeconds);
    }
    if (addressAttempt.last) {
        int64_t wait = static_cast<int64_t>(retryAfterSeconds(1, kAddressFailures.perSecond));
        return lockedError(now + wait, wait);
    }
    return false;
}

Result<SignedIn> OperatorAccounts::signIn(const std::string& email, const std::string& password, const std::string& clientAddress) {
    int64_t now = clock_.nowSeconds();
    auto addressAttempt = reserveAddressAttempt(clientAddress);
    if (!addressAttempt) return addressAttempt.error();
    if (!addressAttempt->allowed) return lockedError(addressAttempt->lockedUntil, addressAttempt->lockedUntil - now);
    auto found = store_->findOperator(std::string(trim(email)));
    if (!found) {
        releaseAddressAttempt(clientAddress);
        return found.error();
    }
    if (!*found) {
        // The same hash under the same gate as a known account: neither time nor a busy answer tells them apart.
        auto pass = gate_.enter();
        if (!pass.entered()) {
            releaseAddressAttempt(clientAddress);
            return busy();
        }
        (void)PasswordHasher::verify(password, unknownAccountHash_);
        return Error::unauthenticated("email or password is not valid");
    }
    OperatorAccount account = **found;
    auto right = verifyReserved(account, password, clientAddress, *addressAttempt);
    if (!right) return right.error();
    if (!*right) return Error::unauthenticated("email or password is not valid");
    now = clock_.nowSeconds();
    if (auto status = store_->recordSignIn(account.id, now); !status) return status.error();
    (void)store_->deleteExpiredSessions(now);
    SignedIn signedIn;
    signedIn.token = randomSecret();
    signedIn.session.tokenHash = SecretHasher::hash(signedIn.token);
    signedIn.session.operatorId = account.id;
    signedIn.session.email = account.email;
    signedIn.session.csrfToken = randomSecret();
    signedIn.session.createdAt = now;
    signedIn.session.expiresAt = now + kSessionSeconds;
    if (auto status = store_->createSession(signedIn.session); !status) return status.error();
    return signedIn;
}

Result<OperatorSession> OperatorAccounts::authenticate(const std::string& token) {
    if (token.empty()) return Error::unauthenticated("sign in first (no session)");
    auto session = store_->findSession(SecretHasher::hash(token), clock_.nowSeconds());
    if (!session) return session.error();
    if (!*session) return Error::unauthenticated("the session has ended: sign in again");
    return **session;
}

Status OperatorAccounts::signOut(const std::string& token) { return store_->deleteSession(SecretHasher::hash(token)); }

Result<std::vector<OperatorAccount>> OperatorAccounts::listOperators() { return store_->listOperators(); }

Status OperatorAccounts::removeOperator(int64_t operatorId, const std::string& callerEmail) {
    auto found = store_->findOperatorById(operatorId);
    if (!found) return found.error();
    if (!*found) return Error::notFound("operatorId: operator " + std::to_string(operatorId) + " does not exist");
    // Case-insensitive like the e-mail column: the caller's session names the stored address.
    if (!callerEmail.empty() && toLower((*found)->email) == toLower(callerEmail)) {
        return Error::permissionDenied("operatorId: you cannot remove your own account; another operator can");
    }
    return store_->deleteOperator(operatorId);
}

Status OperatorAccounts::changePassword(const std::string& email, const std::string& currentPassword, const std::string& newPassword,
                                        const std::string& keepToken, const std::string& clientAddress) {
    if (currentPassword.empty()) return Error::invalidArgument("currentPassword: required");
    if (auto valid = PasswordHasher::validNew(newPassword, "newPassword"); !valid) return valid.error();
    if (newPassword == currentPassword) return Error::invalidArgument("newPassword: must differ from the current password");
    int64_t now = clock_.nowSeconds();
    auto addressAttempt = reserveAddressAttempt(clientAddress);
    if (!addressAttempt) return addressAttempt.error();
    if (!addressAttempt->allowed) {
        Error locked = lockedError(addressAttempt->lockedUntil, addressAttempt->lockedUntil - now);
        locked.message = "currentPassword: " + locked.message;
        return std::move(locked).about("currentPassword");
    }
    auto found = store_->findOperator(email);
    if (!found || !*found) releaseAddressAttempt(clientAddress);
    if (!found) return found.error();
    if (!*found) return Error::unauthenticated("the session's account no longer exists: sign in again");
    OperatorAccount account = **found;
    // Counted like a sign-in: a stolen session must not become a password oracle.
    auto right = verifyReserved(account, currentPassword, clientAddress, *addressAttempt);
    if (!right) return Error{right.error().code, "currentPassword: " + right.error().message};
    if (!*right) return Error::permissionDenied("currentPassword: not your current password");
    auto hash = hashNew(newPassword);
    if (!hash) return Error{hash.error().code, "newPassword: " + hash.error().message};
    return store_->setPassword(account.id, *hash, keepToken.empty() ? "" : SecretHasher::hash(keepToken));
}

Status OperatorAccounts::resetPassword(const std::string& email, const std::string& newPassword) {
    if (auto valid = PasswordHasher::validNew(newPassword, "password"); !valid) return valid.error();
    auto found = store_->findOperator(std::string(trim(email)));
    if (!found) return found.error();
    if (!*found) return Error::notFound("--email: no operator with e-mail address " + std::string(trim(email)));
    auto hash = hashNew(newPassword);
    if (!hash) return hash.error();
    return store_->setPassword((*found)->id, *hash, "");
}

}  // namespace svc
