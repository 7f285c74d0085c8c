// What ptxas reports in the compile log is what the driver finds in the loaded
// module: the launch panel's register and shared-memory figures are the real ones.
#include "compile/Compiler.hpp"
#include "compile/PtxasReportParser.hpp"
#include "cuda/Context.hpp"
#include "cuda/CudaDevices.hpp"
#include "cuda/DriverApi.hpp"
#include "cuda/Module.hpp"
#include "gpu/GpuTestSupport.hpp"
#include "support/TextFile.hpp"

using namespace kw;

TEST(GpuPtxasReport, RegistersAndSharedMemoryMatchTheLoadedModule)
{
    KW_REQUIRE_GPU();
    const DeviceInfo device = cuda::CudaDevices::query(0);
    const std::string arch = Compiler::realArchFor(device.ccMajor, device.ccMinor);
    ASSERT_FALSE(arch.empty()) << "NVRTC cannot compile for the device";

    Compiler compiler;
    CompileRequest req;
    req.source = test::readTextFile(std::string(KW_TEST_DATA_DIR) + "/ptxas_reports/kernels.cu");
    req.options.arch = arch;
    const CompileResult r = compiler.compile(req);
    ASSERT_TRUE(r.ok) << r.log;
    ASSERT_FALSE(r.cubin.empty());
    const auto report = parsePtxasReport(r.log);
    ASSERT_EQ(report.size(), r.entries.size()) << r.log;
    ASSERT_FALSE(report.empty()) << "kernels.cu has kernels: nothing would be compared";

    const cuda::Context context(0);
    const cuda::Module module(r.cubin.data(), "kernels.cu");
    const auto& api = cuda::DriverApi::get();
    for (const KernelResources& k : report) {
        SCOPED_TRACE(k.entry);
        EXPECT_EQ(k.arch, arch);
        const CUfunction f = module.function(k.entry);
        auto attr = [&](CUfunction_attribute a) {
            int v = -1;
            api.check(api.cuFuncGetAttribute(&v, a, f), "cuFuncGetAttribute", k.entry);
            return v;
        };
        EXPECT_EQ(k.registers, attr(CU_FUNC_ATTRIBUTE_NUM_REGS));
        EXPECT_EQ(int(k.sharedBytes), attr(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES));
        EXPECT_EQ(int(k.stackBytes), attr(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES));
    }
}
