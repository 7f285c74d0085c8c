// Documents run through `srun kwb-run serve` on a one-node Slurm cluster started for
// the test, and a job cancelled with scancel while it runs.
#include "OneNodeSlurmCluster.hpp"
#include "RemoteDocuments.hpp"
#include "RemoteTestSupport.hpp"
#include "support/TempDir.hpp"

#include "doc/BufferFactory.hpp"
#include "serve/ServeClient.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace fs = std::filesystem;
using kwtest::OneNodeSlurmCluster;

namespace {

class RemoteSlurm : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        dir_ = new fs::path(kw::test::freshDir("kwremote", "slurm"));
        cluster_ = new OneNodeSlurmCluster(*dir_ / "cluster");
        startError_ = new std::string(cluster_->start());
    }
    static void TearDownTestSuite()
    {
        if (cluster_)
            for (const std::string& id : cluster_->runningJobs())
                kwtest::shell("scancel " + id);
        kwtest::killProcessesWithEnvironment(remoteCache().string());
        delete cluster_;
        delete startError_;
        delete dir_;
    }
    void SetUp() override { ASSERT_TRUE(startError_->empty()) << *startError_; }

    static fs::path remoteCache() { return *dir_ / "node-cache"; }
    // srun hands the test's environment to the job: the runner's cache folder is
    // chosen the way a node's login environment would choose it.
    static std::string runner()
    {
        return "srun --quiet --ntasks=1 --partition=gpu --time=5 env -u KWB_CACHE_DIR XDG_CACHE_HOME="
            + remoteCache().string() + " " + kwtest::kwbRunPath() + " serve";
    }

    static fs::path* dir_;
    static OneNodeSlurmCluster* cluster_;
    static std::string* startError_;
};

fs::path* RemoteSlurm::dir_ = nullptr;
OneNodeSlurmCluster* RemoteSlurm::cluster_ = nullptr;
std::string* RemoteSlurm::startError_ = nullptr;

} // namespace

TEST_F(RemoteSlurm, DocumentsRunThroughSrunWithTheirFiles)
{
    const kw::Document doc = kwtest::writeRoundTripDocument(*dir_ / "client");
    kw::ServeClient srun(runner());
    const kw::RunResult first = srun.run(doc, "sim", "all");
    ASSERT_TRUE(first.compile.ok);
    EXPECT_TRUE(first.ok);
    for (const auto& b : first.buffers)
        if (b.name == "c")
            EXPECT_EQ(b.data.bytes(),
                      kw::BufferFactory::readFile(*dir_ / "client" / "doubles.csv", kw::DType::F64).data.bytes());
    // One allocation serves several jobs.
    EXPECT_EQ(cluster_->runningJobs().size(), 1u);
    EXPECT_TRUE(srun.run(doc, "sim").ok);
    EXPECT_TRUE(fs::is_directory(remoteCache() / "kernel-workbench" / "jobs"));
}

TEST_F(RemoteSlurm, AJobCancelledByTheSchedulerIsReportedAsLost)
{
    const kw::Document slow = kwtest::writeSlowDocument(*dir_ / "slow");
    std::string message;
    std::thread canceller;
    {
        kw::ServeClient srun(runner());
        try {
            srun.run(slow, "sim", "outputs", [&](const std::string& stage) {
                if (stage == "launch" && !canceller.joinable())
                    canceller = std::thread([] {
                        std::this_thread::sleep_for(std::chrono::milliseconds(500));
                        for (const std::string& id : cluster_->runningJobs())
                            kwtest::shell("scancel " + id);
                    });
            });
            ADD_FAILURE() << "the run finished although its job was cancelled";
        } catch (const kw::Error& e) {
            message = e.what();
        }
    }
    if (canceller.joinable())
        canceller.join();
    EXPECT_NE(message.find("the job in flight is lost"), std::string::npos) << message;
    EXPECT_NE(message.find("the scheduler ended the job"), std::string::npos) << message;
    EXPECT_NE(message.find("srun"), std::string::npos) << message;

    // A new allocation works at once.
    kw::ServeClient again(runner());
    EXPECT_TRUE(again.run(kwtest::writeRoundTripDocument(*dir_ / "after"), "sim").ok);
}
