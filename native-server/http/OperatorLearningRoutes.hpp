#pragma once
// Up to where a tenant's content has learned from its purchases (ADR 0074), for operators and
// evaluations: GET .../content/learning reads it, POST .../content/learning learns every
// purchase stored so far before it answers (the way to wait for learning).
#include <httplib.h>

#include "http/OperatorAuth.hpp"
#include "recommend/ContentIndex.hpp"

namespace svc {

class OperatorLearningRoutes {
public:
    OperatorLearningRoutes(OperatorAuth& auth, ContentIndex& index) : auth_(auth), index_(index) {}
    void registerOn(httplib::Server& server);

private:
    void answer(const httplib::Request& request, httplib::Response& response, bool learnNow);
    OperatorAuth& auth_;
    ContentIndex& index_;
};

}  // namespace svc
