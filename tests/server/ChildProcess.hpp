#pragma once
// Runs the real svc-server binary as a child process (for tests that kill it).
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

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
    ~ChildProcess() {
        if (pid_ > 0 && !exited_) {
            ::kill(pid_, SIGKILL);
            wait();
        }
    }
    bool started() const { return pid_ > 0; }
    void kill(int signal = SIGKILL) { ::kill(pid_, signal); }
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
