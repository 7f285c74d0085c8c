// The reader of the DWARF in PTX compiled with -G, against NVRTC's own output for
// kernels of ours (tests/data/dwarf: scopes.cu, a device function and shadowed names;
// local.cu, an array and a struct in .local memory; the reduction_shared sample). The
// expected values were read off the byte directives by hand (the abbreviation table,
// the DIEs, the ULEB128-packed register names).
#include "compile/DwarfAbbreviations.hpp"
#include "compile/DwarfCursor.hpp"
#include "compile/DwarfDieTree.hpp"
#include "compile/DwarfLocation.hpp"
#include "compile/PtxDebugInfo.hpp"
#include "compile/PtxDebugSections.hpp"
#include "util/Error.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace kw::dwarf;

namespace {

std::string readData(const std::string& name)
{
    std::ifstream in(std::string(KW_TEST_DATA_DIR) + "/dwarf/" + name);
    std::stringstream s;
    s << in.rdbuf();
    EXPECT_FALSE(s.str().empty()) << name;
    return s.str();
}

const SourceVariable& find(const PtxDebugInfo& info, const std::string& name, std::uint32_t line)
{
    for (const SourceVariable& v : info.variables())
        if (v.name == name && v.line == line)
            return v;
    ADD_FAILURE() << "no variable " << name << " at line " << line;
    static SourceVariable none;
    return none;
}

} // namespace

TEST(PtxDebugSections, BytesAndSymbolReferences)
{
    const PtxDebugSections s = PtxDebugSections::read(".section .debug_x\n{\n.b8 1,2\n.b16 770\n.b32 .debug_loc+131\n"
                                                      ".b64 $L__tmp4\n.b8 255\n}\n");
    const DebugSection* x = s.find(".debug_x");
    ASSERT_NE(x, nullptr);
    ASSERT_EQ(x->bytes.size(), 2u + 2 + 4 + 8 + 1);
    EXPECT_EQ(x->bytes[2], 2);
    EXPECT_EQ(x->bytes[3], 3);
    EXPECT_EQ(x->bytes.back(), 255);
    ASSERT_EQ(x->references.size(), 2u);
    EXPECT_EQ(x->referenceAt(4)->symbol, ".debug_loc");
    EXPECT_EQ(x->referenceAt(4)->addend, 131u);
    EXPECT_EQ(x->referenceAt(8)->symbol, "$L__tmp4");
    EXPECT_EQ(x->referenceAt(8)->size, 8);
    EXPECT_EQ(x->referenceAt(5), nullptr);
    EXPECT_EQ(s.find(".debug_info"), nullptr);
}

TEST(PtxDebugSections, RefusesWhatItCannotRead)
{
    EXPECT_THROW(PtxDebugSections::read(".section .debug_x { .b8 256 }"), kw::Error);
    EXPECT_THROW(PtxDebugSections::read(".section .debug_x { .b8 sym }"), kw::Error);
    EXPECT_THROW(PtxDebugSections::read(".section .debug_x { .f32 1 }"), kw::Error);
    EXPECT_THROW(PtxDebugSections::read(".section .debug_x { .b8 1"), kw::Error);
}

TEST(DwarfCursor, Leb128)
{
    // 179 228 149 1 is 0x257233; 0x7f as a signed LEB is -1; 0x80 0x7f is -128.
    const PtxDebugSections s = PtxDebugSections::read(".section .debug_x { .b8 179,228,149,1,127,128,127 }");
    DwarfCursor c(*s.find(".debug_x"));
    EXPECT_EQ(c.uleb(), 0x257233u);
    EXPECT_EQ(c.sleb(), -1);
    EXPECT_EQ(c.sleb(), -128);
    EXPECT_TRUE(c.atEnd());
    EXPECT_THROW(c.u8(), kw::Error);
}

TEST(DwarfLocation, PackedRegisterNames)
{
    EXPECT_EQ(packedRegisterName(0x257233), "%r3");
    EXPECT_EQ(packedRegisterName(0x25723138), "%r18");
    EXPECT_EQ(packedRegisterName(0x25726431), "%rd1");
    EXPECT_EQ(packedRegisterName(5), ""); // a DWARF register number, not a name
    EXPECT_EQ(packedRegisterName(0x2572200a), "");
}

TEST(DwarfLocation, RefusesOperationsItDoesNotKnow)
{
    DwarfBlock fbreg{{0x91, 0x10}, {}};
    EXPECT_THROW(decodeLocation(fbreg), kw::Error);
    DwarfBlock reg5{{0x55}, {}};
    EXPECT_THROW(decodeLocation(reg5), kw::Error);
    DwarfBlock numericAddress{{0x03, 1, 0, 0, 0, 0, 0, 0, 0}, {}};
    EXPECT_THROW(decodeLocation(numericAddress), kw::Error);
    DwarfBlock regxThenPiece{{0x90, 179, 228, 149, 1, 0x93, 4}, {}};
    EXPECT_THROW(decodeLocation(regxThenPiece), kw::Error);
}

TEST(DwarfDieTree, ReductionSampleUnit)
{
    const PtxDebugSections s = PtxDebugSections::read(readData("reduction_G.ptx"));
    // The abbreviation table: code 1 is the compile unit with children (DW_AT_producer as
    // a string first); code 9 the subprogram.
    const DwarfAbbreviations table(*s.find(".debug_abbrev"), 0);
    EXPECT_EQ(table.at(1).tag, tag::CompileUnit);
    EXPECT_TRUE(table.at(1).hasChildren);
    EXPECT_EQ(table.at(1).attributes.front(), std::make_pair(std::uint64_t(0x25), std::uint64_t(0x08)));
    EXPECT_EQ(table.at(9).tag, tag::Subprogram);
    EXPECT_THROW(table.at(99), kw::Error);

    const DwarfDieTree tree(s);
    ASSERT_FALSE(tree.dies().empty());
    const Die& unit = tree.dies().front();
    EXPECT_EQ(unit.tag, tag::CompileUnit);
    EXPECT_EQ(unit.offset, 11u);
    EXPECT_EQ(unit.name(), "reduction.cu");
    const Die* fn = tree.atOffset(217);
    ASSERT_NE(fn, nullptr);
    EXPECT_EQ(fn->tag, tag::Subprogram);
    EXPECT_EQ(fn->name(), "block_sum");
    EXPECT_EQ(fn->find(at::LowPc)->symbol->symbol, "$L__func_begin0");
    EXPECT_EQ(fn->find(at::HighPc)->symbol->symbol, "$L__func_end0");
    // Three parameters, then the function's outer lexical block.
    ASSERT_EQ(fn->children.size(), 4u);
    EXPECT_EQ(tree.dies()[fn->children[2]].name(), "n");
    EXPECT_EQ(tree.dies()[fn->children[3]].tag, tag::LexicalBlock);
    EXPECT_EQ(tree.parent(*fn), &unit);
}

TEST(PtxDebugInfo, ReductionSampleVariables)
{
    const auto info = PtxDebugInfo::read(readData("reduction_G.ptx"));
    ASSERT_TRUE(info);
    const SourceVariable& in = find(*info, "in", 5);
    EXPECT_TRUE(in.parameter);
    EXPECT_EQ(in.function, "_Z9block_sumPKfPfi");
    EXPECT_EQ(in.type.kind, SourceType::Kind::Pointer);
    EXPECT_EQ(in.type.name, "const float *");
    ASSERT_TRUE(in.location);
    EXPECT_EQ(in.location->registerName, "%rd1");

    const SourceVariable& n = find(*info, "n", 5);
    EXPECT_EQ(n.type.name, "int");
    EXPECT_EQ(n.type.kind, SourceType::Kind::Signed);
    EXPECT_EQ(n.location->registerName, "%r6");

    const SourceVariable& tid = find(*info, "tid", 9);
    EXPECT_FALSE(tid.parameter);
    EXPECT_EQ(tid.type.name, "unsigned int");
    EXPECT_EQ(tid.type.kind, SourceType::Kind::Unsigned);
    EXPECT_EQ(tid.type.size, 4u);
    EXPECT_EQ(tid.location->registerName, "%r1");
    ASSERT_EQ(tid.scopes.size(), 1u);
    EXPECT_EQ(tid.scopes[0].begin, "$L__tmp0");
    EXPECT_EQ(tid.scopes[0].end, "$L__tmp16");

    // stride: a location list (the loop's register changes as it is copied around).
    const SourceVariable& stride = find(*info, "stride", 16);
    EXPECT_FALSE(stride.location);
    ASSERT_EQ(stride.scopes.size(), 2u);
    EXPECT_EQ(stride.scopes[0].begin, "$L__tmp3");
    EXPECT_EQ(stride.scopes[0].end, "$L__tmp13");
    ASSERT_EQ(stride.ranges.size(), 5u);
    EXPECT_EQ(stride.ranges[0].begin, "$L__tmp4");
    EXPECT_EQ(stride.ranges[0].end, "$L__tmp5");
    EXPECT_EQ(stride.ranges[0].location.registerName, "%r3");
    EXPECT_EQ(stride.ranges[1].location.registerName, "%r15");
    EXPECT_EQ(stride.ranges[2].location.registerName, "%r4");
    EXPECT_EQ(stride.ranges[3].location.registerName, "%r5");
    EXPECT_EQ(stride.ranges[4].end, "$L__func_end0");
    EXPECT_EQ(stride.ranges[4].location.registerName, "%r15");

    // The dynamic shared array: a module variable at the address of `partial`, shared (8).
    const SourceVariable& partial = find(*info, "partial", 7);
    EXPECT_TRUE(partial.function.empty());
    EXPECT_EQ(partial.addressClass, 8u);
    EXPECT_EQ(partial.type.kind, SourceType::Kind::Array);
    EXPECT_EQ(partial.type.element, SourceType::Kind::Float);
    EXPECT_EQ(partial.type.count, 0u);
    EXPECT_EQ(partial.type.name, "float[]");
    ASSERT_TRUE(partial.location);
    EXPECT_EQ(partial.location->kind, VariableLocation::Kind::Address);
    EXPECT_EQ(partial.location->symbol, "partial");
    for (const SourceVariable& v : info->variables())
        EXPECT_TRUE(v.unreadable.empty()) << v.name << ": " << v.unreadable;
}

TEST(PtxDebugInfo, DeviceFunctionAndShadowedNames)
{
    const auto info = PtxDebugInfo::read(readData("scopes_G.ptx"));
    ASSERT_TRUE(info);
    // weigh(float x, int k): its own parameters, in its own PTX function.
    const SourceVariable& x = find(*info, "x", 1);
    EXPECT_EQ(x.function, "_Z5weighfi");
    EXPECT_EQ(x.location->registerName, "%f4");
    const SourceVariable& w2 = find(*info, "w2", 5);
    EXPECT_EQ(w2.scopes.size(), 2u);
    EXPECT_EQ(w2.location->registerName, "%f6");
    const SourceVariable& w = find(*info, "w", 3);
    ASSERT_EQ(w.ranges.size(), 5u);
    EXPECT_EQ(w.ranges[0].location.registerName, "%f1");

    // The kernel's two v: the outer at line 17 in %r3, the loop's at line 19 in %r15,
    // one scope deeper.
    const SourceVariable& outer = find(*info, "v", 17);
    const SourceVariable& inner = find(*info, "v", 19);
    EXPECT_EQ(outer.function, "_Z6scopesPKfPfi");
    EXPECT_EQ(outer.location->registerName, "%r3");
    EXPECT_EQ(inner.location->registerName, "%r15");
    EXPECT_EQ(inner.scopes.size(), outer.scopes.size() + 2);
    EXPECT_EQ(find(*info, "acc", 15).type.kind, SourceType::Kind::Float);
    EXPECT_EQ(find(*info, "acc", 15).type.size, 8u);
    EXPECT_EQ(find(*info, "count", 16).type.name, "unsigned int");
    // `inside` has no location at all: NVRTC kept no place for it.
    const SourceVariable& inside = find(*info, "inside", 14);
    EXPECT_EQ(inside.type.kind, SourceType::Kind::Bool);
    EXPECT_FALSE(inside.location);
    EXPECT_TRUE(inside.ranges.empty());
    EXPECT_TRUE(inside.unreadable.empty());
}

TEST(PtxDebugInfo, LocalMemoryVariables)
{
    const auto info = PtxDebugInfo::read(readData("local_G.ptx"));
    ASSERT_TRUE(info);
    const SourceVariable& a = find(*info, "a", 4);
    EXPECT_EQ(a.addressClass, 6u);
    EXPECT_EQ(a.type.kind, SourceType::Kind::Array);
    EXPECT_EQ(a.type.name, "int[4]");
    EXPECT_EQ(a.type.count, 4u);
    ASSERT_TRUE(a.location);
    EXPECT_EQ(a.location->symbol, "__local_depot0");
    EXPECT_EQ(a.location->offset, 0u);
    const SourceVariable& p = find(*info, "p", 5);
    EXPECT_EQ(p.type.name, "Pair");
    EXPECT_EQ(p.type.kind, SourceType::Kind::Struct);
    // Its members from DW_TAG_member, each at its DW_AT_data_member_location.
    EXPECT_EQ(p.type.size, 8u);
    EXPECT_TRUE(p.type.membersUnreadable.empty()) << p.type.membersUnreadable;
    ASSERT_EQ(p.type.members.size(), 2u);
    EXPECT_EQ(p.type.members[0].name, "a");
    EXPECT_EQ(p.type.members[0].offset, 0u);
    EXPECT_EQ(p.type.members[0].type.kind, SourceType::Kind::Signed);
    EXPECT_EQ(p.type.members[1].name, "b");
    EXPECT_EQ(p.type.members[1].offset, 4u);
    EXPECT_EQ(p.type.members[1].type.kind, SourceType::Kind::Float);
    EXPECT_EQ(p.type.members[1].type.size, 4u);
    EXPECT_EQ(p.location->offset, 16u);
    EXPECT_EQ(find(*info, "q", 8).location->registerName, "%rd4");
}

TEST(PtxDebugInfo, NoDebugInformationWithoutG)
{
    EXPECT_FALSE(PtxDebugInfo::read(".version 9.0\n.target sm_80\n.address_size 64\n"));
}
