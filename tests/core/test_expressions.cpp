#include "doc/Expression.hpp"
#include "doc/VariableScope.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace kw;

namespace {

double eval(const std::string& text) { return VariableScope().evaluate(text, "test"); }

std::string errorOf(const std::function<void()>& f)
{
    try {
        f();
    } catch (const Error& e) {
        EXPECT_EQ(e.category(), ErrorCategory::Expression) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "no error";
    return {};
}

} // namespace

TEST(Expressions, Arithmetic)
{
    EXPECT_DOUBLE_EQ(eval("1 + 2 * 3"), 7.0);
    EXPECT_DOUBLE_EQ(eval("(1 + 2) * 3"), 9.0);
    EXPECT_DOUBLE_EQ(eval("2^10"), 1024.0);
    EXPECT_DOUBLE_EQ(eval("-3 + 1"), -2.0);
    EXPECT_DOUBLE_EQ(eval("sqrt(16) + abs(-2)"), 6.0);
    EXPECT_DOUBLE_EQ(eval("min(3, 1, 2)"), 1.0);
    EXPECT_DOUBLE_EQ(eval("1 < 2 ? 10 : 20"), 10.0);
    EXPECT_DOUBLE_EQ(eval("1e3"), 1000.0);
}

TEST(Expressions, Shifts)
{
    EXPECT_DOUBLE_EQ(eval("1<<20"), 1048576.0);
    EXPECT_DOUBLE_EQ(eval("1 << 0"), 1.0);
    EXPECT_DOUBLE_EQ(eval("256>>2"), 64.0);
    EXPECT_DOUBLE_EQ(eval("255 >> 4"), 15.0);
    EXPECT_DOUBLE_EQ(eval("3<<1<<2"), 24.0); // left to right
    // As in C, + binds tighter than <<.
    EXPECT_DOUBLE_EQ(eval("1<<2+1"), 8.0);
    EXPECT_DOUBLE_EQ(eval("(1<<2)+1"), 5.0);
    EXPECT_DOUBLE_EQ(eval("1<<40"), std::ldexp(1.0, 40));
    // Comparisons still work next to the shift operators.
    EXPECT_DOUBLE_EQ(eval("3 < 4"), 1.0);
    EXPECT_DOUBLE_EQ(eval("4 > 3"), 1.0);
    EXPECT_DOUBLE_EQ(eval("4 >= 4"), 1.0);
    EXPECT_DOUBLE_EQ(eval("4 <= 3"), 0.0);
}

TEST(Expressions, ModuloAndIntegerHelpers)
{
    EXPECT_DOUBLE_EQ(eval("17 % 5"), 2.0);
    EXPECT_DOUBLE_EQ(eval("-7 % 3"), -1.0);    // C's sign rule
    EXPECT_DOUBLE_EQ(eval("2 + 10 % 4"), 4.0); // % binds like *
    EXPECT_DOUBLE_EQ(eval("floor(2.7)"), 2.0);
    EXPECT_DOUBLE_EQ(eval("ceil(2.1)"), 3.0);
    EXPECT_DOUBLE_EQ(eval("trunc(-2.7)"), -2.0);
    EXPECT_DOUBLE_EQ(eval("cdiv(400, 256)"), 2.0);
    EXPECT_DOUBLE_EQ(eval("cdiv(512, 256)"), 2.0);
}

TEST(Expressions, VariablesInOrder)
{
    const VariableScope scope = VariableScope::evaluate({{"n", "1<<10"}, {"block", "128"}, {"grid", "n / block"}});
    EXPECT_EQ(scope.value("n"), 1024.0);
    EXPECT_EQ(scope.value("grid"), 8.0);
    EXPECT_FALSE(scope.value("m").has_value());
    EXPECT_EQ(scope.evaluateInteger("grid * block", "f"), 1024);
    ASSERT_EQ(scope.values().size(), 3u);
    EXPECT_EQ(scope.values()[2].first, "grid");
}

TEST(Expressions, VariablesInDependencyOrder)
{
    // A variable may name one listed after it: each is evaluated after those it names.
    const VariableScope scope = VariableScope::evaluate(
        {{"grid", "cdiv(n, block)"}, {"a", "b + 1"}, {"b", "2"}, {"n", "1000"}, {"block", "256"}});
    EXPECT_EQ(scope.value("a"), 3.0);
    EXPECT_EQ(scope.value("grid"), 4.0);
    ASSERT_EQ(scope.values().size(), 5u);
    EXPECT_EQ(scope.values()[0].first, "grid") << "listed in the document's order";
    EXPECT_EQ(errorOf([] {
                  VariableScope::evaluate({{"a", "q + 1"}});
              }),
              "variables[0] (a): unknown name \"q\" in \"q + 1\"");
}

TEST(Expressions, ACycleOfVariablesIsNamed)
{
    EXPECT_EQ(errorOf([] {
                  VariableScope::evaluate({{"n", "4"}, {"a", "b + 1"}, {"b", "c * 2"}, {"c", "a"}});
              }),
              "variables[1] (a): the variables form a cycle: a -> b -> c -> a");
    EXPECT_EQ(errorOf([] {
                  VariableScope::evaluate({{"n", "n + 1"}});
              }),
              "variables[0] (n): the variables form a cycle: n -> n");
}

TEST(Expressions, UnknownNameNamesFieldAndExpression)
{
    const std::string msg = errorOf([] {
        VariableScope::evaluate({{"n", "400"}}).evaluate("n * q", "buffers[0].count");
    });
    EXPECT_EQ(msg, "buffers[0].count: unknown name \"q\" in \"n * q\"");
}

TEST(Expressions, IntegerEvaluationRefusesFractions)
{
    const VariableScope scope = VariableScope::evaluate({{"n", "400"}});
    EXPECT_EQ(scope.evaluateInteger("n/4", "f"), 100);
    EXPECT_EQ(errorOf([&] { scope.evaluateInteger("n/3", "buffers[1].count"); }),
              "buffers[1].count: \"n/3\" is not an integer (133.333); / divides exactly here: use cdiv(a, b) "
              "to round up or floor(a / b) to round down");
    EXPECT_NE(errorOf([&] { scope.evaluateInteger("1/0", "f"); }).find("is not an integer (inf)"), std::string::npos);
    EXPECT_NE(errorOf([&] { scope.evaluateInteger("2^70", "f"); }).find("too large"), std::string::npos);
}

TEST(Expressions, SyntaxErrorsNameTheField)
{
    const std::string msg = errorOf([] { eval("1 +"); });
    EXPECT_EQ(msg.rfind("test: ", 0), 0u) << msg;
    EXPECT_NE(msg.find("1 +"), std::string::npos) << msg;
    EXPECT_NE(errorOf([] { eval("(1 + 2"); }).find("test: "), std::string::npos);
    EXPECT_NE(errorOf([] { eval(""); }).find("test: "), std::string::npos);
    EXPECT_NE(errorOf([] { eval("1, 2"); }).find("gives 2 values"), std::string::npos);
}

TEST(Expressions, BoundVariablesAndFunctions)
{
    double i = 0;
    static const double table[] = {10, 20, 30};
    Expression e("i * 2 + t(i)", "f");
    e.bindVariable("i", &i);
    e.bindFunction(
        "t", [](void* data, double j) { return static_cast<const double*>(data)[int(j)]; }, const_cast<double*>(table));
    for (int k = 0; k < 3; ++k) {
        i = k;
        EXPECT_DOUBLE_EQ(e.evaluate(), k * 2 + table[k]);
    }
    EXPECT_EQ(e.usedNames(), std::vector<std::string>{"i"});
}

TEST(Expressions, FormatNumber)
{
    EXPECT_EQ(formatNumber(133.3333), "133.333");
    // Enough digits to tell values apart: -1.125 is not -1.12 nor -1.13.
    EXPECT_EQ(formatNumber(-1.125), "-1.125");
    EXPECT_EQ(formatNumber(0.1 + 0.2), "0.3");
    EXPECT_EQ(formatNumber(123456.5), "123456.5");

    EXPECT_EQ(formatNumber(2.5), "2.5");
    EXPECT_EQ(formatNumber(1048576), "1048576");
    EXPECT_EQ(formatNumber(-3), "-3");
    EXPECT_EQ(formatNumber(1e-7), "1e-07");
    // Rounding must never make a fraction look whole: 4.996 is not "5".
    EXPECT_EQ(formatNumber(4.99609375), "4.99609");
    EXPECT_EQ(formatNumber(2.0000001), "2.0000001");
    EXPECT_EQ(numberText(0.1), "0.1");
    EXPECT_EQ(numberText(400), "400");
}

// The grid formula of C code divides exactly in an expression: the message must give the
// real value and the way out, never a rounded "5" that contradicts "not an integer".
TEST(Expressions, InexactDivisionSaysWhyAndHowToRoundUp)
{
    const VariableScope scope = VariableScope::evaluate({{"n", "1024"}, {"block", "256"}});
    const std::string msg = errorOf([&] { scope.evaluateInteger("(n + block - 1) / block", "launch.grid[0]"); });
    EXPECT_NE(msg.find("is not an integer (4.99609)"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("(5)"), std::string::npos) << msg;
    EXPECT_NE(msg.find("cdiv(a, b)"), std::string::npos) << msg;
    EXPECT_EQ(scope.evaluateInteger("cdiv(n + 1, block)", "launch.grid[0]"), 5);
}
