// Unit tests of net/S3Location: the s3:// form of pull sources (docs/adr/0034), its refusals
// naming the field, and the HTTP URL the fetcher signs.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "net/S3Location.hpp"

using svc::S3Location;

TEST_CASE("S3Location turns s3:// URLs into the object's HTTP URL") {
    struct Case {
        std::string url;
        std::string httpUrl;
        std::string scope;
    };
    const std::vector<Case> cases{
        {"s3://shop-feeds/feed.csv", "https://shop-feeds.s3.us-east-1.amazonaws.com/feed.csv", "aws:amz:us-east-1:s3"},
        {"s3://shop-feeds/daily/feed.csv.gz?region=eu-central-1", "https://shop-feeds.s3.eu-central-1.amazonaws.com/daily/feed.csv.gz",
         "aws:amz:eu-central-1:s3"},
        {"s3://feeds.shop.example/feed.csv?region=eu-west-1", "https://s3.eu-west-1.amazonaws.com/feeds.shop.example/feed.csv",
         "aws:amz:eu-west-1:s3"},
        {"s3://feeds/a%20b/c+d.csv?endpoint=http://127.0.0.1:9000&region=local-1", "http://127.0.0.1:9000/feeds/a%20b/c%2Bd.csv",
         "aws:amz:local-1:s3"},
        {"S3://feeds/x.csv?endpoint=https%3A%2F%2Fminio.intra.example", "https://minio.intra.example/feeds/x.csv", "aws:amz:us-east-1:s3"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.url);
        auto location = S3Location::parse(c.url, "--url");
        REQUIRE(location);
        CHECK(location->httpUrl() == c.httpUrl);
        CHECK(location->signingScope() == c.scope);
    }
}

TEST_CASE("S3Location refuses malformed s3:// URLs naming the field") {
    struct Case {
        std::string url;
        std::string message;
    };
    const std::vector<Case> cases{
        {"https://feeds/x.csv", "--url: 'https://feeds/x.csv' is not an s3:// URL"},
        {"s3://Feeds/x.csv", "--url: 'Feeds' is not a bucket name"},
        {"s3://ab/x.csv", "--url: 'ab' is not a bucket name"},
        {"s3://-feeds/x.csv", "--url: '-feeds' is not a bucket name"},
        {"s3://feeds/", "--url: s3://feeds/ names no object"},
        {"s3://feeds", "--url: s3://feeds/ names no object"},
        {"s3://feeds/x%zz.csv", "--url: the object key has a malformed %-escape"},
        {"s3://feeds/x.csv?region=EU", "--url: region 'EU' is not a region name"},
        {"s3://feeds/x.csv?endpoint=ftp://h", "--url: endpoint 'ftp://h' is not an http(s)://host[:port] origin"},
        {"s3://feeds/x.csv?endpoint=http://h/path", "--url: endpoint 'http://h/path' is not an http(s)://host[:port] origin"},
        {"s3://feeds/x.csv?endpoint=http://u:p@h", "--url: endpoint 'http://u:p@h' is not an http(s)://host[:port] origin"},
        {"s3://feeds/x.csv?versionId=3", "--url: unknown parameter 'versionId'"},
        {"s3://feeds/x.csv#top", "--url: an s3:// URL has no fragment"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.url);
        auto location = S3Location::parse(c.url, "--url");
        REQUIRE_FALSE(location);
        CHECK(location.error().message.rfind(c.message, 0) == 0);
    }
}
