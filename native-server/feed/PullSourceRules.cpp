#include "feed/PullSourceRules.hpp"

#include "feed/FeedImportOptions.hpp"
#include "feed/FeedImportRecord.hpp"
#include "feed/FeedPuller.hpp"
#include "feed/PullSource.hpp"

namespace svc {

PullSourceFieldNames PullSourceFieldNames::cli() {
    return {"--feed", "--url", "--every", "--identifier", "--delimiter", "--username", "--password-env", "--private-key-file", "--host-key"};
}

PullSourceFieldNames PullSourceFieldNames::api() {
    return {"feed", "url", "every", "identifier", "delimiter", "username", "password", "privateKey", "hostKey"};
}

CheckedPullSource PullSourceRules::check(const PullSourceRequest& request, const PullSourceFieldNames& names) {
    CheckedPullSource checked;
    auto& errors = checked.errors;
    auto refuse = [&](const std::string& field, const std::string& why) { errors.push_back(Error::invalidArgument(field + ": " + why)); };
    // The import options by FeedImportOptions' rules; the URL's, interval's and credentials' here.
    FeedImportOptions options;
    options.feed = request.feed;
    options.identifier = request.identifier;
    auto delimiter = FeedImportOptions::parseDelimiter(request.delimiter, names.delimiter);
    if (delimiter) options.delimiter = *delimiter;
    errors = options.validate({names.identifier, names.delimiter, names.feed});
    if (!delimiter) errors.push_back(delimiter.error());
    bool urlValid = true;
    if (auto valid = validatePullUrl(request.url, names.url); !valid) {
        errors.push_back(valid.error());
        urlValid = false;
    }
    checked.intervalSeconds = defaultPullInterval(request.delta);
    bool intervalParsed = true;
    if (request.every) {
        auto parsed = parsePullInterval(*request.every, names.every);
        if (!parsed) {
            errors.push_back(parsed.error());
            intervalParsed = false;
        } else {
            checked.intervalSeconds = *parsed;
        }
    }
    if (intervalParsed) {
        if (auto valid = validatePullInterval(checked.intervalSeconds, request.delta, names.every); !valid) errors.push_back(valid.error());
    }
    std::string scheme = pullUrlScheme(request.url);
    // (S)FTP has no content type: a name that says no format would fail every pull, so refuse it now.
    if (urlValid && (scheme == "ftp" || scheme == "sftp") && feedFormatFromFileName(request.url) == FileFormat::Unknown) {
        refuse(names.url, "the file name must end in .csv or .csv.gz (an " + scheme + ":// file's name says its format)");
    }
    if (scheme == "sftp") {
        if (request.username.empty()) refuse(names.username, "an sftp:// source needs the user to log in as");
        if (request.hostKey.empty()) {
            refuse(names.hostKey,
                   "an sftp:// source needs the server's host key fingerprint (ssh-keyscan -p PORT HOST | ssh-keygen -lf -); "
                   "the service trusts no other key");
        } else if (auto valid = validateSshHostKey(request.hostKey, names.hostKey); !valid) {
            errors.push_back(valid.error());
        }
    } else if (!request.hostKey.empty()) {
        refuse(names.hostKey, "only sftp:// sources have a host key");
    } else if (request.hasPrivateKey) {
        refuse(names.privateKey, "only sftp:// sources log in with a key");
    }
    if (scheme == "s3" && !request.username.empty() && !request.hasPassword) {
        refuse(names.password, "an S3 access key (" + names.username + ") needs its secret access key");
    }
    if (request.hasPassword && request.username.empty()) refuse(names.password, "needs " + names.username);
    return checked;
}

Status PullSourceRules::checkPrivateKey(const std::string& key, const std::string& field, const std::string& what) {
    bool looksLikeKey = key.size() <= 16384 && key.rfind("-----BEGIN ", 0) == 0 && key.find("PRIVATE KEY-----") != std::string::npos;
    if (!looksLikeKey) return Error::invalidArgument(field + ": " + what + " is not an SSH private key (-----BEGIN OPENSSH PRIVATE KEY----- ...)");
    return Status::success();
}

}  // namespace svc
