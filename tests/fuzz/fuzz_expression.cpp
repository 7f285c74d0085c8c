// The expression evaluator: the first line is an expression over n, i and x.
#include "FuzzInput.hpp"
#include "doc/Expression.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::string_view in = kw::fuzz::text(data, size);
    const std::string expr(in.substr(0, in.find('\n')));
    kw::fuzz::refusalsOnly([&] {
        kw::Expression e(expr, "fuzz");
        e.defineConstant("n", 1000);
        double i = 3, x = 0.5;
        e.bindVariable("i", &i);
        e.bindVariable("x", &x);
        e.compile();
        (void)e.evaluate();
        (void)e.usedNames();
        (void)e.evaluateInteger();
    });
    return 0;
}
