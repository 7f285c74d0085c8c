#pragma once
// Debian's sshd on 127.0.0.1 and a free port, with its own host key, client key,
// sshd_config and known_hosts in a temporary folder: nothing of the system's
// configuration is read or changed. start() says what failed when it cannot start.
#include "RemoteTestSupport.hpp"

#include <filesystem>
#include <fstream>
#include <string>

namespace kwtest {

class LoopbackSshServer {
public:
    explicit LoopbackSshServer(std::filesystem::path dir)
        : dir_(std::move(dir))
    {
    }
    ~LoopbackSshServer() { stop(); }

    // Empty on success, else what failed.
    std::string start()
    {
        namespace fs = std::filesystem;
        if (!fs::exists("/usr/sbin/sshd"))
            return "/usr/sbin/sshd is not installed (Debian package openssh-server)";
        fs::create_directories(dir_);
        for (const char* key : {"host_key", "client_key", "stranger_key"}) {
            const Shell k = shell("ssh-keygen -q -t ed25519 -N '' -f " + (dir_ / key).string());
            if (!k.ok())
                return "ssh-keygen failed: " + k.output;
        }
        fs::copy_file(dir_ / "client_key.pub", dir_ / "authorized_keys", fs::copy_options::overwrite_existing);
        fs::permissions(dir_ / "authorized_keys", fs::perms::owner_read | fs::perms::owner_write);
        port_ = freeLoopbackPort();
        std::ofstream(dir_ / "sshd_config") << "Port " << port_ << "\n"
                                            << "ListenAddress 127.0.0.1\n"
                                            << "HostKey " << (dir_ / "host_key").string() << "\n"
                                            << "AuthorizedKeysFile " << (dir_ / "authorized_keys").string() << "\n"
                                            << "PidFile " << (dir_ / "sshd.pid").string() << "\n"
                                            << "UsePAM no\n"
                                            << "StrictModes no\n"
                                            << "PermitRootLogin prohibit-password\n"
                                            << "PubkeyAuthentication yes\n"
                                            << "PasswordAuthentication yes\n"
                                            << "KbdInteractiveAuthentication no\n"
                                            << "MaxStartups 50\n"
                                            << "LogLevel VERBOSE\n";
        // The privilege separation folder sshd insists on (normally made at boot).
        std::error_code ec;
        fs::create_directories("/run/sshd", ec);
        const Shell check = shell("/usr/sbin/sshd -t -f " + (dir_ / "sshd_config").string());
        if (!check.ok())
            return "sshd -t refused the configuration: " + check.output;
        const Shell run
            = shell("/usr/sbin/sshd -f " + (dir_ / "sshd_config").string() + " -E " + (dir_ / "sshd.log").string());
        if (!run.ok())
            return "sshd did not start: " + run.output + readFile(dir_ / "sshd.log");
        if (!waitFor([&] { return pidFromFile(dir_ / "sshd.pid") > 0; }, std::chrono::seconds(10)))
            return "sshd wrote no pid file: " + readFile(dir_ / "sshd.log");
        pid_ = pidFromFile(dir_ / "sshd.pid");

        const std::string hostKey = readFile(dir_ / "host_key.pub");
        std::ofstream(dir_ / "known_hosts") << "[127.0.0.1]:" << port_ << " " << hostKey;
        std::ofstream(dir_ / "empty_known_hosts");
        writeClientConfig("ssh_config", "client_key", "known_hosts", true);
        writeClientConfig("ssh_config_unknown_host", "client_key", "empty_known_hosts", false);
        writeClientConfig("ssh_config_no_key", "stranger_key", "known_hosts", false);
        const Shell probe = shell(sshCommand() + " true");
        if (!probe.ok())
            return "ssh to the loopback sshd failed: " + probe.output + readFile(dir_ / "sshd.log");
        return {};
    }

    void stop()
    {
        if (pid_ > 0) {
            // Sessions first (children of the listener), then the listener.
            killSessions();
            ::kill(pid_t(pid_), SIGTERM);
            pid_ = -1;
        }
    }

    // Ends every open connection from the server's side, as a network failure would.
    void killSessions()
    {
        if (pid_ <= 0)
            return;
        for (const auto& e : std::filesystem::directory_iterator("/proc")) {
            const std::string name = e.path().filename().string();
            if (name.find_first_not_of("0123456789") != std::string::npos)
                continue;
            std::istringstream stat(readFile(e.path() / "stat"));
            std::string pid, comm, state;
            long ppid = -1;
            // "pid (comm) state ppid": comm has no spaces for sshd.
            stat >> pid >> comm >> state >> ppid;
            if (ppid == pid_)
                ::kill(pid_t(std::stol(name)), SIGKILL);
        }
    }

    int port() const { return port_; }
    // `ssh -F CONFIG -p PORT 127.0.0.1`: key, known host, no prompts.
    std::string sshCommand(const std::string& config = "ssh_config") const
    {
        return "ssh -F " + (dir_ / config).string() + " -p " + std::to_string(port_) + " 127.0.0.1";
    }
    std::string log() const { return readFile(dir_ / "sshd.log"); }

private:
    void writeClientConfig(const std::string& name, const std::string& key, const std::string& knownHosts, bool batch)
    {
        std::ofstream(dir_ / name) << "Host *\n"
                                   << "  IdentityFile " << (dir_ / key).string() << "\n"
                                   << "  IdentitiesOnly yes\n"
                                   << "  UserKnownHostsFile " << (dir_ / knownHosts).string() << "\n"
                                   << "  GlobalKnownHostsFile /dev/null\n"
                                   << "  StrictHostKeyChecking " << (batch ? "yes" : "ask") << "\n"
                                   << "  BatchMode " << (batch ? "yes" : "no") << "\n"
                                   << "  PreferredAuthentications publickey,password\n"
                                   << "  ServerAliveInterval 5\n"
                                   << "  LogLevel ERROR\n";
    }

    std::filesystem::path dir_;
    int port_ = 0;
    long pid_ = -1;
};

} // namespace kwtest
