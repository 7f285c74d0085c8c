#include "compile/IncludeDirective.hpp"

#include <gtest/gtest.h>

using kw::IncludeDirective;
using Word = IncludeDirective::Word;

TEST(IncludeDirective, ReadsQuotedAndAngledNames)
{
    const auto q = IncludeDirective::read("#include \"util.cuh\"");
    EXPECT_EQ(q.word, Word::Include);
    EXPECT_TRUE(q.quoted);
    EXPECT_EQ(q.name, "util.cuh");
    EXPECT_TRUE(q.isPlainInclude());

    const auto a = IncludeDirective::read("  #  include<cuda_fp16.h> // half");
    EXPECT_EQ(a.word, Word::Include);
    EXPECT_FALSE(a.quoted);
    EXPECT_EQ(a.name, "cuda_fp16.h");
}

TEST(IncludeDirective, KnowsTheOtherSpellings)
{
    EXPECT_EQ(IncludeDirective::read("%:include <x.h>").name, "x.h");
    const auto next = IncludeDirective::read("#include_next <stdlib.h>");
    EXPECT_EQ(next.word, Word::IncludeNext);
    EXPECT_EQ(next.name, "stdlib.h");
    EXPECT_FALSE(next.isPlainInclude()); // a scanner does not follow it
    EXPECT_EQ(IncludeDirective::read("#import \"m.h\"").word, Word::Import);
}

TEST(IncludeDirective, AComputedIncludeHasNoName)
{
    const auto m = IncludeDirective::read("#include HEADER_NAME");
    EXPECT_TRUE(m.isInclude());
    EXPECT_TRUE(m.computed);
    EXPECT_TRUE(m.name.empty());
    EXPECT_FALSE(m.isPlainInclude());
    EXPECT_TRUE(IncludeDirective::read("#include \"unclosed").computed);
    EXPECT_FALSE(IncludeDirective::read("#include \"\"").isPlainInclude());
}

TEST(IncludeDirective, OtherDirectivesAreNotIncludes)
{
    EXPECT_FALSE(IncludeDirective::read("#define include \"x\"").isInclude());
    EXPECT_FALSE(IncludeDirective::read("#includes <x>").isInclude());
    EXPECT_FALSE(IncludeDirective::read("include <x>").isInclude());
    EXPECT_FALSE(IncludeDirective::read("#pragma once").isInclude());
}
