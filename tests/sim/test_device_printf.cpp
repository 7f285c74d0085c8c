// The simulator's device printf: fields as the CUDA runtime formats them, and width and
// precision clamped so that a kernel cannot pad or allocate past its time limit.
#include "sim/DevicePrintf.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace {

// Device memory: the format at 0x1000, the packed arguments at 0x2000.
struct Memory {
    std::vector<char> format, args;
    kw::sim::DeviceReader reader() const
    {
        return [this](std::uint64_t a, std::uint32_t n, void* out) {
            const std::vector<char>* region = a >= 0x2000 ? &args : &format;
            const std::uint64_t base = a >= 0x2000 ? 0x2000 : 0x1000;
            if (a < base || a + n > base + region->size())
                return false;
            std::memcpy(out, region->data() + (a - base), n);
            return true;
        };
    }
};

template <typename T> std::string format(const std::string& fmt, T value)
{
    Memory m;
    m.format.assign(fmt.begin(), fmt.end());
    m.format.push_back('\0');
    m.args.resize(sizeof(T));
    std::memcpy(m.args.data(), &value, sizeof(T));
    int count = 0;
    return kw::sim::formatDevicePrintf(0x1000, 0x2000, m.reader(), count).value_or("<unreadable>");
}

TEST(DevicePrintf, FormatsFieldsAsTheRuntimeDoes)
{
    EXPECT_EQ(format("[%5d]", 42), "[   42]");
    EXPECT_EQ(format("[%-6.2f]", 3.14159), "[3.14  ]");
    EXPECT_EQ(format("%o", 8u), "10");
    EXPECT_EQ(format("%hd", 70000), "4464");
    EXPECT_EQ(format("%hhd", 300), "44");
    EXPECT_EQ(format("%#x", 255u), "0xff");
    EXPECT_EQ(format("%.3e", 1234.5), "1.234e+03");
}

TEST(DevicePrintf, AHugeWidthOrPrecisionIsClampedAndQuick)
{
    const std::string wide = format("%999999999d", 7);
    const std::string precise = format("%.999999999f", 1.0);
    const std::string both = format("%99999999999999999999.99999999999999999999f", 2.0);
    EXPECT_EQ(wide.size(), kw::sim::kMaxPrintfField);
    EXPECT_EQ(wide.back(), '7');
    EXPECT_EQ(precise.substr(0, 2), "1.");
    EXPECT_LE(precise.size(), 512u);
    EXPECT_EQ(both.find("2."), both.find_first_not_of(' '));
    // Unclamped, the first pads for seconds (cut to 511 here) and the second takes gigabytes.
}

} // namespace
