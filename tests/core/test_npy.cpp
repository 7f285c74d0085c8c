#include "data/NpyFile.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

using namespace kw;

namespace {

std::vector<std::byte> bytesOf(const std::string& s)
{
    std::vector<std::byte> b(s.size());
    std::memcpy(b.data(), s.data(), s.size());
    return b;
}

// A .npy as NumPy writes it: magic, version, header length, header, data.
std::vector<std::byte> npy(int major, const std::string& dict, const std::string& data)
{
    std::string header = dict;
    const std::size_t prefix = major == 1 ? 10 : 12;
    while ((prefix + header.size() + 1) % 64)
        header += ' ';
    header += '\n';
    std::string out = "\x93NUMPY";
    out += char(major);
    out += char(0);
    const std::size_t len = header.size();
    out += char(len & 0xff);
    out += char((len >> 8) & 0xff);
    if (major != 1) {
        out += char(0);
        out += char(0);
    }
    return bytesOf(out + header + data);
}

std::string errorOf(const std::vector<std::byte>& bytes)
{
    try {
        NpyFile::decode(bytes, "x.npy");
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), ErrorCategory::Io);
        return e.what();
    }
    ADD_FAILURE() << "decoded";
    return {};
}

} // namespace

TEST(Npy, RoundTripEveryDType)
{
    const auto dir = std::filesystem::temp_directory_path() / "kw_test_npy";
    std::filesystem::create_directories(dir);
    for (DType t : {DType::I8, DType::U8, DType::I16, DType::U16, DType::I32, DType::U32, DType::I64, DType::U64,
                    DType::F16, DType::BF16, DType::F32, DType::F64}) {
        HostBuffer b(t, 6);
        for (std::size_t i = 0; i < 6; ++i)
            b.set(i, isFloating(t) ? 0.5 * double(i) - 1.0 : double(i * 7));
        const auto path = dir / (std::string(toString(t)) + ".npy");
        NpyFile::write(path, b, {2, 3});
        const NdArray back = NpyFile::read(path);
        // bf16 has no NumPy type: it comes back as its u16 bits.
        EXPECT_EQ(back.data.dtype(), t == DType::BF16 ? DType::U16 : t) << toString(t);
        EXPECT_EQ(back.shape, (std::vector<std::size_t>{2, 3}));
        EXPECT_EQ(back.data.bytes(), b.bytes()) << toString(t);
        EXPECT_EQ(std::filesystem::file_size(path) % 64, 6 * sizeOf(t) % 64);
    }
    std::filesystem::remove_all(dir);
}

TEST(Npy, HeaderIsWhatNumPyExpects)
{
    HostBuffer b(DType::F32, 3);
    const std::vector<std::byte> bytes = NpyFile::encode(b);
    const std::string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    EXPECT_EQ(text.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
    const std::size_t headerLen = std::size_t(std::uint8_t(text[8])) | (std::size_t(std::uint8_t(text[9])) << 8);
    EXPECT_EQ((10 + headerLen) % 64, 0u);
    EXPECT_EQ(text[10 + headerLen - 1], '\n');
    EXPECT_NE(text.find("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }"), std::string::npos);
    EXPECT_EQ(bytes.size(), 10 + headerLen + 12);
}

TEST(Npy, ReadsVersions1To3AndScalars)
{
    const std::string data("\x01\x00\x02\x00\x03\x00\x04\x00", 8);
    for (int major : {1, 2, 3}) {
        const NdArray a
            = NpyFile::decode(npy(major, "{'descr': '<i2', 'fortran_order': False, 'shape': (2, 2), }", data), "x.npy");
        EXPECT_EQ(a.data.dtype(), DType::I16);
        EXPECT_EQ(a.shape, (std::vector<std::size_t>{2, 2}));
        EXPECT_EQ(a.data.at(3), 4.0);
    }
    const NdArray s = NpyFile::decode(
        npy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }", std::string("\0\0\0\0\0\0\xf0\x3f", 8)),
        "x.npy");
    EXPECT_TRUE(s.shape.empty());
    EXPECT_EQ(s.data.count(), 1u);
    EXPECT_EQ(s.data.at(0), 1.0);
    const NdArray one
        = NpyFile::decode(npy(1, "{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }", "abc"), "x.npy");
    EXPECT_EQ(one.data.dtype(), DType::U8);
    EXPECT_EQ(one.data.at(2), double('c'));
}

TEST(Npy, RefusesWhatItCannotRead)
{
    EXPECT_NE(errorOf(npy(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", std::string(16, '\0')))
                  .find("x.npy: Fortran-order arrays are not supported"),
              std::string::npos);
    EXPECT_NE(errorOf(npy(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", std::string(8, '\0')))
                  .find("big-endian"),
              std::string::npos);
    EXPECT_NE(errorOf(npy(1, "{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", std::string(16, '\0')))
                  .find("object arrays are not supported"),
              std::string::npos);
    EXPECT_NE(errorOf(npy(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", std::string(16, '\0')))
                  .find("unsupported dtype '<c8'"),
              std::string::npos);
    EXPECT_NE(
        errorOf(npy(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", "")).find("structured"),
        std::string::npos);
    EXPECT_NE(errorOf(npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", std::string(8, '\0')))
                  .find("holds 8 data bytes, shape (4,) needs 16"),
              std::string::npos);
    EXPECT_NE(errorOf(bytesOf("hello, this is not numpy")).find("not a .npy file"), std::string::npos);
}

TEST(Npy, MissingFileNamesIt)
{
    try {
        NpyFile::read("/nonexistent/dir/a.npy");
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/a.npy"), std::string::npos);
    }
}
