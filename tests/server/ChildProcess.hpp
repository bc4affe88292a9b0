#pragma once
// Runs the real svc-server binary as a child process (for tests that kill it).
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <map>
#include <string>
#include <vector>

extern char** environ;

namespace svc::test {

class ChildProcess {
public:
    // stdout goes to `stdoutPath` (or /dev/null), stderr is inherited.
    ChildProcess(const std::vector<std::string>& arguments, const std::string& stdoutPath = "/dev/null") {
        std::vector<char*> argv;
        for (const auto& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
        argv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdoutPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ) != 0) pid_ = -1;
        posix_spawn_file_actions_destroy(&actions);
    }
    // A tool (found on PATH) or a node of the cluster suite: stdout and stderr appended to
    // `logPath`, `environment` on top of this process's.
    ChildProcess(const std::vector<std::string>& arguments, const std::string& logPath, const std::map<std::string, std::string>& environment) {
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
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;
    ~ChildProcess() {
        if (pid_ > 0 && !exited_) {
            ::kill(pid_, SIGKILL);
            wait();
        }
    }
    bool started() const { return pid_ > 0; }
    int pid() const { return pid_; }
    // Not once it was waited for: its process id may belong to another process by then.
    void kill(int signal = SIGKILL) {
        if (pid_ > 0 && !exited_) ::kill(pid_, signal);
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

private:
    pid_t pid_ = -1;
    bool exited_ = false;
    int status_ = -1;
};

}  // namespace svc::test
