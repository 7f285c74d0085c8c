// docs/ptx-support.md against the opcode table: the same mnemonics, in the same
// section (runs / refused), with the same operands, types and modifiers; and the
// table's types against the handlers the arithmetic rows pick.
#include "sim/ArithmeticHandlers.hpp"
#include "sim/OpcodeTable.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#ifndef KW_PTX_SUPPORT_DOC
#error "KW_PTX_SUPPORT_DOC names docs/ptx-support.md (tests/CMakeLists.txt)"
#endif

namespace {

using namespace kw::sim;

struct DocRow {
    std::string operands, types;
    std::set<std::string> modifiers;
    bool refused = false;
    int line = 0;
};

std::string trim(std::string s)
{
    const auto b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::string unquote(std::string s)
{
    std::string out;
    for (char c : s)
        if (c != '`')
            out += c;
    out = trim(out);
    return out == "\xe2\x80\x94" ? std::string() : out; // an em dash: none
}

std::set<std::string> words(const std::string& s)
{
    std::set<std::string> out;
    std::istringstream in(s);
    for (std::string w; in >> w;) {
        if (!w.empty() && w[0] == '.')
            w.erase(0, 1);
        out.insert(w);
    }
    return out;
}

// Table rows ("| `name` | ... |") under "## Instructions" and "## Recognised, not supported".
std::map<std::string, DocRow> readDoc()
{
    std::ifstream file(KW_PTX_SUPPORT_DOC);
    EXPECT_TRUE(file) << KW_PTX_SUPPORT_DOC;
    std::map<std::string, DocRow> rows;
    bool inTable = false, refused = false;
    int lineNo = 0;
    for (std::string line; std::getline(file, line);) {
        ++lineNo;
        if (line.starts_with("## ")) {
            inTable = line == "## Instructions" || line == "## Recognised, not supported";
            refused = line == "## Recognised, not supported";
            continue;
        }
        if (!inTable || !line.starts_with("| `"))
            continue;
        std::string text;
        for (std::size_t i = 0; i < line.size(); ++i) { // "\|" is a '|' inside a cell
            if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
                text += '\x01';
                ++i;
            } else
                text += line[i];
        }
        std::vector<std::string> cells;
        std::istringstream in(text.substr(1));
        for (std::string cell; std::getline(in, cell, '|');) {
            for (char& c : cell)
                if (c == '\x01')
                    c = '|';
            cells.push_back(cell);
        }
        EXPECT_GE(cells.size(), 5u) << "line " << lineNo << ": " << line;
        if (cells.size() < 5)
            continue;
        const std::string name = unquote(cells[0]);
        EXPECT_FALSE(rows.count(name)) << "line " << lineNo << ": `" << name << "` listed twice";
        rows[name] = {unquote(cells[1]), unquote(cells[2]), words(unquote(cells[3])), refused, lineNo};
    }
    return rows;
}

TEST(PtxSupportDoc, ListsEveryTableRowAndNothingElse)
{
    const auto doc = readDoc();
    std::set<std::string> table;
    for (const OpcodeInfo& row : supportedOpcodes()) {
        table.insert(std::string(row.name));
        EXPECT_TRUE(doc.count(std::string(row.name)))
            << "`" << row.name << "` is in the opcode table but not in " << KW_PTX_SUPPORT_DOC;
    }
    for (const auto& [name, row] : doc)
        EXPECT_TRUE(table.count(name)) << KW_PTX_SUPPORT_DOC << ":" << row.line << ": `" << name
                                       << "` is not in the opcode table";
}

TEST(PtxSupportDoc, RowsSayWhatTheTableSays)
{
    const auto doc = readDoc();
    for (const OpcodeInfo& row : supportedOpcodes()) {
        const auto it = doc.find(std::string(row.name));
        if (it == doc.end())
            continue; // reported above
        const DocRow& d = it->second;
        const std::string where
            = std::string(KW_PTX_SUPPORT_DOC) + ":" + std::to_string(d.line) + ": `" + std::string(row.name) + "`";
        EXPECT_EQ(d.refused, row.refused) << where << ": in the wrong section";
        EXPECT_EQ(d.operands, std::string(shapeText(row.shape))) << where << ": operands";
        EXPECT_EQ(d.types, typeSetText(row.types)) << where << ": types";
        EXPECT_EQ(d.modifiers, words(std::string(row.modifiers))) << where << ": modifiers";
    }
}

// The arithmetic rows pick their lane loop by type: the table's types are exactly those with one.
TEST(OpcodeTable, ArithmeticRowTypesAreTheTypesWithAHandler)
{
    for (const OpcodeInfo& row : supportedOpcodes()) {
        if (row.op == ArithOp::None)
            continue;
        for (int t = 0; t <= int(PtxType::Pred); ++t) {
            const auto type = PtxType(t);
            EXPECT_EQ(arithHandler(row.op, type) != nullptr, (row.types & typeBit(type)) != 0)
                << "`" << row.name << "` with type #" << t << " (" << typeSetText(typeBit(type)) << ")";
        }
    }
}

TEST(OpcodeTable, LookupFindsEveryRowAndOnlyThem)
{
    for (const OpcodeInfo& row : supportedOpcodes())
        EXPECT_EQ(findOpcode(row.name), &row) << row.name;
    for (const char* name : {"", "a", "adds", "zzz", "ld.global", "call", "Add"})
        EXPECT_EQ(findOpcode(name), nullptr) << name;
}

TEST(OpcodeTable, ModifierListsAreWholeWords)
{
    const OpcodeInfo* add = findOpcode("add");
    ASSERT_NE(add, nullptr);
    EXPECT_TRUE(listsModifier(*add, "rn"));
    EXPECT_TRUE(listsModifier(*add, "cc"));
    EXPECT_FALSE(listsModifier(*add, "r"));
    EXPECT_FALSE(listsModifier(*add, "c"));
    EXPECT_FALSE(listsModifier(*add, "wide"));
}

} // namespace
