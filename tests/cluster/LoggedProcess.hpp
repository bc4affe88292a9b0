#pragma once
// A child process of the cluster suite (an svc node, haproxy, s3rver): its stdout and stderr in
// a log file of its own, extra environment variables on top of the test's, killed (SIGKILL)
// when destroyed unless it was waited for (tests/server/ChildProcess.hpp), its log read back
// for failure messages.
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "server/ChildProcess.hpp"

namespace svc::cluster {

class LoggedProcess : public svc::test::ChildProcess {
public:
    LoggedProcess(const std::vector<std::string>& arguments, const std::string& logPath, const std::map<std::string, std::string>& environment = {})
        : ChildProcess(arguments, logPath, environment), logPath_(logPath) {}

    // The last `bytes` of its output, for failure messages.
    std::string logTail(size_t bytes = 1500) const {
        std::ifstream file(logPath_, std::ios::binary);
        std::stringstream text;
        text << file.rdbuf();
        std::string all = text.str();
        return all.size() > bytes ? all.substr(all.size() - bytes) : all;
    }
    const std::string& logPath() const { return logPath_; }

private:
    std::string logPath_;
};

}  // namespace svc::cluster
