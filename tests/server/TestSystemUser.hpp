#pragma once
// A system account that exists only while a test runs: the (S)FTP servers the pull tests start
// log in real local users. Created with useradd (so the tests need root), removed with userdel.
#include <unistd.h>

#include <string>
#include <thread>

#include "ChildProcess.hpp"

namespace svc::test {

class TestSystemUser {
public:
    // `password` empty: the account has an empty password (a login without one, where the server permits it).
    // `home`: the account's home directory (not created).
    TestSystemUser(const std::string& prefix, const std::string& password, const std::string& home) {
        static int counter = 0;
        name = prefix + std::to_string(::getpid() % 100000) + "x" + std::to_string(++counter);
        if (::geteuid() != 0) {
            why = "creating the test user needs root";
            return;
        }
        // useradd waits for nobody: another process holding /etc/passwd's lock makes it fail, so try a few times.
        for (int attempt = 0; attempt < 20 && !created; ++attempt) {
            created = run({"/usr/sbin/useradd", "--no-create-home", "--no-user-group", "--home-dir", home, "--shell", "/bin/sh", name}) == 0;
            if (!created) std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        if (!created) {
            why = "useradd " + name + " failed";
            return;
        }
        int set = password.empty() ? run({"/usr/bin/passwd", "--quiet", "--delete", name})
                                   : run({"/bin/sh", "-c", "echo \"$0:$1\" | /usr/sbin/chpasswd", name, password});
        if (set != 0) why = "setting the password of " + name + " failed";
    }
    ~TestSystemUser() {
        if (!created) return;
        for (int attempt = 0; attempt < 20 && run({"/usr/sbin/userdel", name}) != 0; ++attempt) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    bool ready() const { return created && why.empty(); }

    std::string name;
    std::string why;

private:
    static int run(const std::vector<std::string>& arguments) {
        ChildProcess child(arguments);
        return child.started() ? child.wait() : -1;
    }
    bool created = false;
};

}  // namespace svc::test
