// The BlobStore contract (docs/adr/0090), run on both backends: EncryptedFileBlobStore in a data
// dir and S3BlobStore in a bucket of s3rver (started here on loopback behind the SigV4-checking
// front, tests/support/S3TestServer.hpp). The S3 backend's parts are made small so a blob of a
// few hundred KiB already goes up as a multipart upload; reads use small ranges for the same reason.
#include <doctest/doctest.h>

#include <sodium.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "StoreBackends.hpp"
#include "net/S3Client.hpp"
#include "store/EncryptedFileBlobStore.hpp"
#include "store/S3BlobStore.hpp"
#include "store/SecretStreamSealer.hpp"
#include "support/S3TestServer.hpp"

using namespace svc;

namespace {

const S3Credentials kS3Keys{"SVCBLOBKEY", "svc-blob-secret-3"};

Key256 testKey(unsigned char fill) {
    Key256 key{};
    key.fill(fill);
    return key;
}

// One backend: the store, and a way to change a stored blob's bytes behind the store's back.
struct BlobBackend {
    std::string name;
    std::unique_ptr<BlobStore> store;
    std::function<void(const std::string& key, const std::function<void(std::string&)>& change)> alter;
};

std::string pattern(size_t size, unsigned seed) {
    std::string bytes(size, '\0');
    for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>((i * 131 + seed * 7 + i / 977) & 0xff);
    return bytes;
}

Status writeBlob(BlobStore& store, const std::string& key, const std::string& bytes, size_t piece = 10'000) {
    auto writer = store.create(key);
    if (!writer) return writer.error();
    for (size_t at = 0; at < bytes.size(); at += piece) {
        if (auto wrote = (*writer)->write(std::string_view(bytes).substr(at, piece)); !wrote) return wrote;
    }
    return (*writer)->commit();
}

Result<std::string> readBlob(BlobStore& store, const std::string& key) {
    auto reader = store.open(key);
    if (!reader) return reader.error();
    std::string out;
    char buffer[7'000];
    for (;;) {
        auto got = (*reader)->read(buffer, sizeof buffer);
        if (!got) return got.error();
        if (*got == 0) return out;
        out.append(buffer, *got);
    }
}

class Backends {
public:
    Backends() : s3_(dir_.path(), kS3Keys.accessKeyId, kS3Keys.secretAccessKey, {"svc-blobs"}, {}) {}

    void forEach(const std::function<void(BlobBackend&)>& check) {
        {
            std::string uploads = dir_.path() + "/uploads";
            BlobBackend file{"file", std::make_unique<EncryptedFileBlobStore>(uploads, testKey(7)),
                             [uploads](const std::string& key, const std::function<void(std::string&)>& change) {
                                 std::string path = uploads + "/" + key;
                                 std::ifstream in(path, std::ios::binary);
                                 std::stringstream bytes;
                                 bytes << in.rdbuf();
                                 std::string stored = bytes.str();
                                 change(stored);
                                 std::ofstream(path, std::ios::binary | std::ios::trunc) << stored;
                             }};
            SUBCASE("file") { check(file); }
        }
        if (!s3_.running()) {
            SVC_SKIP(test::SkipReason::DependencyInstalledByScripts, "BlobStore on S3: " << s3_.why);
            return;
        }
        auto location = S3Location::parse(s3_.url("svc-blobs", "node-shared/uploads"), "blob-url").value();
        S3BlobOptions small{256 * 1024, 100 * 1024};
        BlobBackend s3{"s3", std::make_unique<S3BlobStore>(location, kS3Keys, testKey(7), small),
                       [location](const std::string& key, const std::function<void(std::string&)>& change) {
                           S3Client client(location, kS3Keys);
                           std::string object = location.key + "/" + key;
                           std::string stored = client.getRange(object, 0, int64_t{1} << 40).value();
                           change(stored);
                           REQUIRE(client.put(object, stored));
                       }};
        SUBCASE("s3") { check(s3); }
    }

private:
    contract::TempDir dir_;
    test::S3TestServer s3_;
};

}  // namespace

TEST_CASE("BlobStore: what is committed reads back byte for byte, whatever its size and the pieces it was written in") {
    Backends backends;
    backends.forEach([](BlobBackend& backend) {
        // Empty, one byte, exactly one sealed chunk, a chunk and a byte, several multipart parts and a short last one.
        for (size_t size : {size_t{0}, size_t{1}, size_t{65'536}, size_t{65'537}, size_t{700'001}}) {
            CAPTURE(backend.name);
            CAPTURE(size);
            std::string key = "blob-" + std::to_string(size);
            std::string bytes = pattern(size, static_cast<unsigned>(size));
            REQUIRE(writeBlob(*backend.store, key, bytes, size % 3 == 0 ? 4'096 : 65'536));
            auto read = readBlob(*backend.store, key);
            REQUIRE(read);
            CHECK(read->size() == bytes.size());
            CHECK(*read == bytes);
        }
    });
}

TEST_CASE("BlobStore: a writer dropped without commit leaves nothing, even after parts went up") {
    Backends backends;
    backends.forEach([](BlobBackend& backend) {
        for (size_t size : {size_t{10}, size_t{600'000}}) {
            CAPTURE(size);
            std::string key = "dropped-" + std::to_string(size);
            {
                auto writer = backend.store->create(key);
                REQUIRE(writer);
                REQUIRE((*writer)->write(pattern(size, 1)));
            }
            auto reader = backend.store->open(key);
            REQUIRE_FALSE(reader);
            CHECK(reader.error().code == ErrorCode::NotFound);
        }
    });
}

TEST_CASE("BlobStore: removed blobs and keys never written are NotFound; removing twice is fine") {
    Backends backends;
    backends.forEach([](BlobBackend& backend) {
        REQUIRE(writeBlob(*backend.store, "to-remove", "feed bytes"));
        REQUIRE(readBlob(*backend.store, "to-remove"));
        REQUIRE(backend.store->remove("to-remove"));
        CHECK(backend.store->remove("to-remove"));
        for (std::string key : {"to-remove", "never-written"}) {
            auto reader = backend.store->open(key);
            REQUIRE_FALSE(reader);
            CHECK(reader.error().code == ErrorCode::NotFound);
            CHECK(reader.error().message == "stored file " + key + " does not exist");
        }
    });
}

TEST_CASE("BlobStore: a stored blob changed, cut short or grown behind the store's back is refused") {
    struct Damage {
        std::string what;
        std::function<void(std::string&)> change;
        std::string error;
    };
    const std::vector<Damage> damages{
        {"a flipped byte in the first chunk", [](std::string& s) { s[40] ^= 1; }, "failed authentication (altered or wrong key)"},
        {"a flipped byte in the last chunk", [](std::string& s) { s[s.size() - 3] ^= 0x20; }, "failed authentication (altered or wrong key)"},
        {"the header changed", [](std::string& s) { s[2] ^= 1; }, "failed authentication (altered or wrong key)"},
        {"the last chunk cut off", [](std::string& s) { s.resize(24 + 65'553); }, "is truncated"},
        {"cut inside a chunk", [](std::string& s) { s.resize(1'000); }, "failed authentication (altered or wrong key)"},
        {"only half the header", [](std::string& s) { s.resize(12); }, "is truncated"},
        {"bytes appended to the last chunk", [](std::string& s) { s += "more"; }, "failed authentication (altered or wrong key)"},
    };
    Backends backends;
    backends.forEach([&](BlobBackend& backend) {
        for (const auto& damage : damages) {
            CAPTURE(damage.what);
            std::string key = "damaged";
            REQUIRE(writeBlob(*backend.store, key, pattern(200'000, 9)));
            backend.alter(key, damage.change);
            auto read = readBlob(*backend.store, key);
            REQUIRE_FALSE(read);
            CHECK(read.error().code == ErrorCode::Internal);
            CHECK(read.error().message.find(damage.error) != std::string::npos);
        }
    });
}

TEST_CASE("BlobStore: a blob sealed with another key is refused; keys outside the safe alphabet are refused") {
    Backends backends;
    backends.forEach([](BlobBackend& backend) {
        REQUIRE(writeBlob(*backend.store, "sealed", "secret feed"));
        // Sealed under another key: the same bytes put where this store's blob was.
        backend.alter("sealed", [](std::string& stored) {
            SecretStreamSealer other(testKey(8));
            other.write("secret feed");
            other.finish();
            stored = other.sealed();
        });
        auto read = readBlob(*backend.store, "sealed");
        REQUIRE_FALSE(read);
        CHECK(read.error().message.find("failed authentication") != std::string::npos);
        for (const std::string& key : std::vector<std::string>{"", "../escape", ".hidden", "a/b", std::string(129, 'k')}) {
            CAPTURE(key);
            auto writer = backend.store->create(key);
            REQUIRE_FALSE(writer);
            CHECK(writer.error().code == ErrorCode::InvalidArgument);
        }
    });
}
