// A whole .cu file in the editor: host code NVRTC never sees is dimmed with a note,
// and the arguments panel lists the source's module globals.
#include "ArgumentsPanel.hpp"
#include "CodeEditor.hpp"
#include "compile/HostCodeFilter.hpp"
#include "compile/SignatureParser.hpp"

#include <gtest/gtest.h>

using namespace kw;

namespace {
const char* source = "#include <iostream>\n"                                 // 1
                     "__constant__ float taps[5];\n"                         // 2
                     "__global__ void k(float* out) { out[0] = taps[0]; }\n" // 3
                     "int main()\n"                                          // 4
                     "{\n"                                                   // 5
                     "    std::cout << 1;\n"                                 // 6
                     "}\n";                                                  // 7
}

TEST(SourceStructure, HostCodeIsDimmedWithANoteAndDeviceCodeIsNot)
{
    CodeEditor editor;
    editor.setText(source);
    editor.setHostCode(HostCodeFilter::deviceOnly(source).removed);
    EXPECT_TRUE(editor.hasIndicatorAt(CodeEditor::HostCodeIndicator, 1, 3));
    EXPECT_TRUE(editor.hasIndicatorAt(CodeEditor::HostCodeIndicator, 4, 2));
    EXPECT_TRUE(editor.hasIndicatorAt(CodeEditor::HostCodeIndicator, 6, 8));
    EXPECT_FALSE(editor.hasIndicatorAt(CodeEditor::HostCodeIndicator, 2, 3));
    EXPECT_FALSE(editor.hasIndicatorAt(CodeEditor::HostCodeIndicator, 3, 5));
    EXPECT_TRUE(editor.annotation(3).contains("not compiled: host code (function main)"));
    EXPECT_TRUE(editor.annotation(0).contains("#include iostream"));
    EXPECT_TRUE(editor.annotation(1).isEmpty()); // the constant is device code
    EXPECT_TRUE(editor.annotation(2).isEmpty());
    editor.setHostCode({});
    EXPECT_FALSE(editor.hasIndicatorAt(CodeEditor::HostCodeIndicator, 4, 2));
    EXPECT_TRUE(editor.annotation(3).isEmpty());
}

TEST(SourceStructure, TheArgumentsPanelListsTheModuleGlobals)
{
    ArgumentsPanel panel;
    panel.setModuleGlobals(parseModuleGlobals(source));
    EXPECT_TRUE(panel.moduleGlobalsText().contains("__constant__ float taps[5] (line 2)"))
        << panel.moduleGlobalsText().toStdString();
    panel.setModuleGlobals({});
    EXPECT_TRUE(panel.moduleGlobalsText().isEmpty());
}
