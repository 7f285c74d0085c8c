#pragma once
// A one-node Slurm cluster from Debian's packages, all of it in a temporary folder:
// munged with its own key and socket, slurmctld and slurmd on free loopback ports
// with a minimal slurm.conf (no cgroups: linuxproc tracking, no task plugin, no
// accounting). Clients find it through SLURM_CONF, which start() sets for this
// process and so for the runner commands it starts.
#include "RemoteTestSupport.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace kwtest {

class OneNodeSlurmCluster {
public:
    explicit OneNodeSlurmCluster(std::filesystem::path dir)
        : dir_(std::move(dir))
    {
    }
    ~OneNodeSlurmCluster() { stop(); }

    // Empty on success, else what failed.
    std::string start()
    {
        namespace fs = std::filesystem;
        for (const char* tool : {"/usr/sbin/munged", "/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/bin/srun"})
            if (!fs::exists(tool))
                return std::string(tool) + " is not installed (Debian packages munge, slurmctld, slurmd, slurm-client)";
        for (const char* sub : {"munge", "state", "spool", "log"})
            fs::create_directories(dir_ / sub);
        fs::permissions(dir_ / "munge", fs::perms::owner_all);
        const Shell key = shell("dd if=/dev/urandom of=" + (dir_ / "munge.key").string()
                                + " bs=1024 count=1 status=none && chmod 400 " + (dir_ / "munge.key").string());
        if (!key.ok())
            return "cannot make a munge key: " + key.output;
        const std::string socket = (dir_ / "munge" / "munge.sock").string();
        const Shell munged
            = shell("/usr/sbin/munged --force --key-file=" + (dir_ / "munge.key").string() + " --socket=" + socket
                    + " --pid-file=" + (dir_ / "munge" / "munged.pid").string() + " --log-file="
                    + (dir_ / "log" / "munged.log").string() + " --seed-file=" + (dir_ / "munge" / "seed").string());
        if (!munged.ok())
            return "munged did not start: " + munged.output + readFile(dir_ / "log" / "munged.log");
        mungePid_ = pidFromFile(dir_ / "munge" / "munged.pid");

        char host[256] = {};
        ::gethostname(host, sizeof host - 1);
        std::string node(host);
        node = node.substr(0, node.find('.'));
        const int ctldPort = freeLoopbackPort(), slurmdPort = freeLoopbackPort();
        const std::string d = dir_.string();
        std::ofstream(dir_ / "slurm.conf")
            << "ClusterName=kwtest\n"
            << "SlurmctldHost=" << node << "(127.0.0.1)\n"
            << "SlurmctldPort=" << ctldPort << "\n"
            << "SlurmdPort=" << slurmdPort << "\n"
            << "SlurmUser=root\nSlurmdUser=root\n"
            << "AuthType=auth/munge\nCredType=cred/munge\n"
            << "AuthInfo=socket=" << socket << "\n"
            << "StateSaveLocation=" << d << "/state\n"
            << "SlurmdSpoolDir=" << d << "/spool\n"
            << "SlurmctldPidFile=" << d << "/slurmctld.pid\n"
            << "SlurmdPidFile=" << d << "/slurmd.pid\n"
            << "SlurmctldLogFile=" << d << "/log/slurmctld.log\n"
            << "SlurmdLogFile=" << d << "/log/slurmd.log\n"
            << "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
            << "JobAcctGatherType=jobacct_gather/none\nAccountingStorageType=accounting_storage/none\n"
            << "SchedulerType=sched/builtin\nSelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n"
            << "MpiDefault=none\nReturnToService=2\nSlurmdParameters=config_overrides\n"
            << "KillWait=2\nMinJobAge=5\n"
            << "NodeName=" << node << " NodeAddr=127.0.0.1 CPUs=" << std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN))
            << " RealMemory=1000 State=UNKNOWN\n"
            << "PartitionName=gpu Nodes=" << node << " Default=YES MaxTime=INFINITE State=UP\n";
        ::setenv("SLURM_CONF", (dir_ / "slurm.conf").c_str(), 1);

        const Shell ctld = shell("/usr/sbin/slurmctld -c -i");
        if (!ctld.ok())
            return "slurmctld did not start: " + ctld.output + readFile(dir_ / "log" / "slurmctld.log");
        if (!waitFor([&] { return pidFromFile(dir_ / "slurmctld.pid") > 0; }, std::chrono::seconds(10)))
            return "slurmctld wrote no pid file: " + readFile(dir_ / "log" / "slurmctld.log");
        ctldPid_ = pidFromFile(dir_ / "slurmctld.pid");
        const Shell slurmd = shell("/usr/sbin/slurmd");
        if (!slurmd.ok())
            return "slurmd did not start: " + slurmd.output + readFile(dir_ / "log" / "slurmd.log");
        if (!waitFor([&] { return pidFromFile(dir_ / "slurmd.pid") > 0; }, std::chrono::seconds(10)))
            return "slurmd wrote no pid file: " + readFile(dir_ / "log" / "slurmd.log");
        slurmdPid_ = pidFromFile(dir_ / "slurmd.pid");
        if (!waitFor([] { return shell("sinfo -h -o %T").output.find("idle") != std::string::npos; },
                     std::chrono::seconds(30)))
            return "the node did not become idle: " + shell("sinfo -N -l").output
                + readFile(dir_ / "log" / "slurmctld.log");
        return {};
    }

    void stop()
    {
        for (long* pid : {&slurmdPid_, &ctldPid_, &mungePid_})
            if (*pid > 0) {
                ::kill(pid_t(*pid), SIGTERM);
                *pid = -1;
            }
    }

    // The ids of the running jobs.
    std::vector<std::string> runningJobs() const
    {
        std::vector<std::string> ids;
        std::istringstream in(shell("squeue -h -t R -o %i").output);
        for (std::string id; in >> id;)
            ids.push_back(id);
        return ids;
    }
    std::string log() const { return readFile(dir_ / "log" / "slurmctld.log") + readFile(dir_ / "log" / "slurmd.log"); }

private:
    std::filesystem::path dir_;
    long mungePid_ = -1, ctldPid_ = -1, slurmdPid_ = -1;
};

} // namespace kwtest
