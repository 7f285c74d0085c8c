// The document's expressions, translated to Python and C++, compute the same doubles as
// the workbench's own evaluator, bit for bit: operators, precedence, C's remainder and
// shifts, the functions, division by zero and NaN.
#include "doc/Expression.hpp"
#include "export/CppRuntime.hpp"
#include "export/ExportTestSupport.hpp" // tests/export
#include "export/ExpressionTranslation.hpp"
#include "export/ExpressionTree.hpp"
#include "export/PythonProgram.hpp"
#include "util/Error.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>

using namespace kw::exporting;
using namespace kwtest;

namespace {

const std::map<std::string, double> kVariables = {{"n", 400}, {"w", 64}, {"h", 48}, {"alpha", 0.2}, {"d", 3}};

const std::vector<std::string> kExpressions = {
    "1 + 2 * 3",
    "-2^2",
    "2^3^2",
    "2^-1",
    "n / 3",
    "7 % 3",
    "-7 % 3",
    "7.5 % -2",
    "1 << 2 + 1",
    "1 << 20",
    "n >> 3",
    "-5 >> 1",
    "2 << d",
    "1 << (10 - d)",
    "cdiv(n, 256)",
    "cdiv(n / (2 << d), 256)",
    "floor(n / 7) * 6 + (n % 4) * ((n % 4) - 1) / 2",
    "n == 400 && w != 64 ? -1 : (w < h ? w + h : w - h)",
    "n > 3 || 0",
    "1 < 2 == 1",
    "sin(n) + cos(alpha) * tan(0.5)",
    "exp(alpha) - log(n) + log10(w) + log2(h) + ln(2)",
    "sqrt(2) + abs(-3.5) + sign(-2) + sign(0) + rint(2.5) + rint(3.5) + rint(-0.5)",
    "asin(0.5) + acos(0.5) + atan(2) + sinh(1) + cosh(1) + tanh(1) + asinh(1) + acosh(2) + atanh(0.5)",
    "min(3, w, 2) + max(alpha, 1) + sum(1, 2, 3) + avg(1, 2, 4)",
    "trunc(-2.7) + ceil(-2.5) + floor(-2.5)",
    "1 / 0",
    "-1 / 0",
    "0 / 0",
    "sqrt(-1)",
    "log(0)",
    "5 % 0",
    "_pi * _e",
    "alpha * 1e-7 + 1.5e3",
    "(w - 1) * (h + 1) / 3.0",
    "n ? 1 : 2",
    "0 ? 1 : 2 ? 3 : 4",
};

double workbench(const std::string& text)
{
    kw::Expression e(text, "test");
    for (const auto& [name, value] : kVariables)
        e.defineConstant(name, value);
    return e.evaluate();
}

std::string translate(Language language, const std::string& text)
{
    const ExpressionTranslation t(
        language,
        [language](const std::string& name) -> std::optional<std::string> {
            const auto v = kVariables.find(name);
            if (v == kVariables.end())
                return std::nullopt;
            return ExpressionTranslation::literal(language, v->second);
        },
        [](const std::string&, const std::string&) -> std::optional<std::string> { return std::nullopt; });
    return t.code(text, "test");
}

// Both NaN, or the same bits.
bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0; }

std::vector<double> values(const std::string& printed)
{
    std::vector<double> v;
    std::istringstream in(printed);
    for (std::string line; std::getline(in, line);)
        v.push_back(std::strtod(line.c_str(), nullptr));
    return v;
}

} // namespace

TEST(ExportExpressions, TreeReadsPrecedenceAsTheWorkbenchDoes)
{
    const ExpressionTree t("a + b * c ? x : y", "f");
    EXPECT_EQ(t.root().kind, ExpressionNode::Kind::Ternary);
    EXPECT_EQ(t.names(), (std::vector<std::string>{"a", "b", "c", "x", "y"}));
    const ExpressionTree calls("cdiv(n, changed(0))", "f");
    EXPECT_EQ(calls.calls(), (std::vector<std::string>{"cdiv", "changed"}));
    EXPECT_THROW(ExpressionTree("1 +", "f"), kw::Error);
    EXPECT_THROW(ExpressionTree("(1", "f"), kw::Error);
    EXPECT_THROW(ExpressionTree("1 $ 2", "f"), kw::Error);
}

TEST(ExportExpressions, UnknownNamesAndFunctionsAreRefusedNamingTheField)
{
    try {
        translate(Language::Python, "q + 1");
        FAIL() << "an unknown name was translated";
    } catch (const kw::Error& e) {
        EXPECT_NE(std::string(e.what()).find("\"q\""), std::string::npos) << e.what();
    }
    EXPECT_THROW(translate(Language::Cpp, "gauss(1)"), kw::Error);
}

TEST(ExportExpressions, LiteralsReadBackToTheSameDouble)
{
    for (double v : {0.1, 1.0 / 3, 1e-300, 123456789.0, -2.5, 5e15})
        for (Language l : {Language::Python, Language::Cpp}) {
            std::string s = ExpressionTranslation::literal(l, v);
            if (s.front() == '(')
                s = s.substr(1, s.size() - 2);
            EXPECT_TRUE(same(std::strtod(s.c_str(), nullptr), v)) << s;
        }
}

TEST(ExportExpressions, PythonComputesTheWorkbenchsDoubles)
{
    if (!haveCommand("python3"))
        GTEST_FAIL() << "python3 is missing: scripts/install-deps.sh installs it";
    const fs::path dir = kw::test::freshDir("kw_export", "expr_py");
    std::string program = "import math\nnp = None\n";
    program += PythonProgram::helpers();
    program += "\n\n";
    for (const auto& e : kExpressions)
        program += "print(float(" + translate(Language::Python, e) + ").hex())\n";
    std::ofstream(dir / "expr.py") << program;
    const Shell r = shell("python3 " + quoted((dir / "expr.py").string()));
    ASSERT_EQ(r.code, 0) << r.output;
    const auto got = values(r.output);
    ASSERT_EQ(got.size(), kExpressions.size()) << r.output;
    for (std::size_t i = 0; i < kExpressions.size(); ++i)
        EXPECT_TRUE(same(got[i], workbench(kExpressions[i])))
            << kExpressions[i] << ": python " << got[i] << ", workbench " << workbench(kExpressions[i]) << " via "
            << translate(Language::Python, kExpressions[i]);
}

TEST(ExportExpressions, CppComputesTheWorkbenchsDoubles)
{
    const fs::path dir = kw::test::freshDir("kw_export", "expr_cpp");
    std::string program = CppRuntime::text();
    program += "\nint main()\n{\n";
    for (const auto& e : kExpressions)
        program += "    std::printf(\"%a\\n\", double(" + translate(Language::Cpp, e) + "));\n";
    program += "}\n";
    std::ofstream(dir / "expr.cpp") << program;
    const Shell build
        = shell("c++ -std=c++17 -I" + quoted(KW_CUDA_INCLUDE_DIR) + " -o " + quoted((dir / "expr").string()) + " "
                + quoted((dir / "expr.cpp").string()) + " -L" + quoted(std::string(KW_CUDA_LIBRARY_DIR) + "/stubs")
                + " -L" + quoted(KW_CUDA_LIBRARY_DIR) + " -lcuda -lnvrtc");
    ASSERT_EQ(build.code, 0) << build.output;
    const Shell r = shell("LD_LIBRARY_PATH=" + quoted(stubDriverFolder().string() + ":" + KW_CUDA_LIBRARY_DIR) + " "
                          + quoted((dir / "expr").string()));
    ASSERT_EQ(r.code, 0) << r.output;
    const auto got = values(r.output);
    ASSERT_EQ(got.size(), kExpressions.size()) << r.output;
    for (std::size_t i = 0; i < kExpressions.size(); ++i)
        EXPECT_TRUE(same(got[i], workbench(kExpressions[i])))
            << kExpressions[i] << ": C++ " << got[i] << ", workbench " << workbench(kExpressions[i]) << " via "
            << translate(Language::Cpp, kExpressions[i]);
}
