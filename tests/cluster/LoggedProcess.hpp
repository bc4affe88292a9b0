#pragma once
// A child process of the cluster suite (an svc node, haproxy, s3rver): its stdout and stderr in
// a log file of its own, extra environment variables on top of the test's, killed (SIGKILL)
// when destroyed unless it was waited for.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace svc::cluster {

class LoggedProcess {
public:
    LoggedProcess(const std::vector<std::string>& arguments, const std::string& logPath, const std::map<std::string, std::string>& environment = {})
        : logPath_(logPath) {
        std::vector<std::string> variables;
        for (char** variable = environ; *variable; ++variable) {
            std::string text(*variable);
            if (!environment.count(text.substr(0, text.find('=')))) variables.push_back(text);
        }
        for (const auto& [name, value] : environment) variables.push_back(name + "=" + value);
        std::vector<char*> argv, envp;
        for (const auto& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
        argv.push_back(nullptr);
        for (const auto& variable : variables) envp.push_back(const_cast<char*>(variable.c_str()));
        envp.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, logPath.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
        posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
        if (posix_spawnp(&pid_, argv[0], &actions, nullptr, argv.data(), envp.data()) != 0) pid_ = -1;
        posix_spawn_file_actions_destroy(&actions);
    }
    ~LoggedProcess() {
        if (pid_ > 0 && !exited_) {
            ::kill(pid_, SIGKILL);
            wait();
        }
    }
    LoggedProcess(const LoggedProcess&) = delete;
    LoggedProcess& operator=(const LoggedProcess&) = delete;

    bool started() const { return pid_ > 0; }
    int pid() const { return pid_; }
    void signal(int number) {
        if (pid_ > 0 && !exited_) ::kill(pid_, number);
    }
    // Exit code, or 128 + signal when it was killed.
    int wait() {
        if (exited_) return status_;
        int raw = 0;
        ::waitpid(pid_, &raw, 0);
        exited_ = true;
        status_ = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
        return status_;
    }
    bool hasExited() {
        if (exited_) return true;
        int raw = 0;
        if (::waitpid(pid_, &raw, WNOHANG) == pid_) {
            exited_ = true;
            status_ = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
        }
        return exited_;
    }
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
    pid_t pid_ = -1;
    bool exited_ = false;
    int status_ = -1;
};

}  // namespace svc::cluster
