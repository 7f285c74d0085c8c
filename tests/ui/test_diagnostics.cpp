// Diagnostics become squiggle indicators over the token, margin markers and
// annotations at the right line and column; live checking drops stale results.
#include "CodeEditor.hpp"
#include "LiveDiagnostics.hpp"
#include "ProblemsPanel.hpp"
#include "debugger/BreakpointMargin.hpp"

#include <QSignalSpy>
#include <QTest>
#include <gtest/gtest.h>

using namespace kw;

namespace {
const char* source = "__global__ void k(float* out, int n)\n" // line 1
                     "{\n"                                    // line 2
                     "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    if (i < n) out[i] = undefined_value * 2.0f;\n" // line 4, col 25
                     "}\n";

Diagnostic diag(int line, int column, Severity s, const std::string& message)
{
    Diagnostic d;
    d.file = LiveDiagnostics::sourceName;
    d.line = line;
    d.column = column;
    d.severity = s;
    d.message = message;
    return d;
}
} // namespace

TEST(Diagnostics, ErrorBecomesIndicatorOverTheTokenAndAMarker)
{
    CodeEditor editor;
    editor.setText(source);
    editor.setDiagnostics({diag(4, 25, Severity::Error, "identifier \"undefined_value\" is undefined")},
                          LiveDiagnostics::sourceName);
    // The whole identifier is underlined, nothing before or after it.
    EXPECT_FALSE(editor.hasIndicatorAt(CodeEditor::ErrorIndicator, 4, 24));
    EXPECT_TRUE(editor.hasIndicatorAt(CodeEditor::ErrorIndicator, 4, 25));
    EXPECT_TRUE(editor.hasIndicatorAt(CodeEditor::ErrorIndicator, 4, 25 + 14));
    EXPECT_FALSE(editor.hasIndicatorAt(CodeEditor::ErrorIndicator, 4, 25 + 15));
    EXPECT_FALSE(editor.hasIndicatorAt(CodeEditor::WarningIndicator, 4, 25));
    // Marker on line 4 only (Scintilla lines are 0-based).
    EXPECT_TRUE(editor.markersAtLine(3) & (1 << CodeEditor::ErrorMarker));
    EXPECT_FALSE(editor.markersAtLine(2) & (1 << CodeEditor::ErrorMarker));
    EXPECT_TRUE(editor.annotation(3).contains("undefined_value"));
    EXPECT_EQ(editor.messagesAt(4, 30).size(), 1);
    EXPECT_TRUE(editor.messagesAt(4, 10).isEmpty());

    editor.setAnnotationsVisible(false);
    EXPECT_TRUE(editor.annotation(3).isEmpty());
    editor.setAnnotationsVisible(true);
    EXPECT_FALSE(editor.annotation(3).isEmpty());
}

TEST(Diagnostics, WarningsUseTheirOwnIndicatorAndClearingRemovesAll)
{
    CodeEditor editor;
    editor.setText(source);
    editor.setDiagnostics({diag(3, 9, Severity::Warning, "variable \"i\" was declared")}, LiveDiagnostics::sourceName);
    EXPECT_TRUE(editor.hasIndicatorAt(CodeEditor::WarningIndicator, 3, 9));
    EXPECT_TRUE(editor.markersAtLine(2) & (1 << CodeEditor::WarningMarker));
    editor.setDiagnostics({}, LiveDiagnostics::sourceName);
    EXPECT_FALSE(editor.hasIndicatorAt(CodeEditor::WarningIndicator, 3, 9));
    EXPECT_EQ(editor.markersAtLine(2), 0u);
}

TEST(Diagnostics, OtherFilesAreNotDrawnInTheEditor)
{
    CodeEditor editor;
    editor.setText(source);
    Diagnostic d = diag(2, 1, Severity::Error, "in a header");
    d.file = "helper.cuh";
    editor.setDiagnostics({d}, LiveDiagnostics::sourceName);
    EXPECT_EQ(editor.markersAtLine(1), 0u);
}

TEST(Diagnostics, ProblemsPanelJumpsToTheLocation)
{
    ProblemsPanel panel;
    panel.setDiagnostics({diag(4, 25, Severity::Error, "bad"), diag(3, 9, Severity::Warning, "meh")});
    EXPECT_EQ(panel.errorCount(), 1);
    EXPECT_EQ(panel.warningCount(), 1);
    QSignalSpy spy(&panel, &ProblemsPanel::locationActivated);
    emit panel.itemClicked(panel.topLevelItem(0), 0);
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(spy.at(0).at(0).toInt(), 4);
    EXPECT_EQ(spy.at(0).at(1).toInt(), 25);
}

TEST(Diagnostics, LiveCompileLocatesTheErrorFromNvrtc)
{
    LiveDiagnostics live;
    live.setTrust(Trust::Trusted); // the user's own source
    QSignalSpy done(&live, &LiveDiagnostics::finished);
    QSignalSpy missing(&live, &LiveDiagnostics::unavailable);
    live.setDelay(10);
    live.sourceEdited(source);
    const bool finished = done.wait(60000);
    ASSERT_TRUE(missing.isEmpty()) << "NVRTC is a build prerequisite: " << missing.at(0).at(0).toString().toStdString();
    ASSERT_TRUE(finished);
    const auto result = done.at(0).at(0).value<CompileResult>();
    ASSERT_FALSE(result.ok);
    ASSERT_FALSE(result.diagnostics.empty());
    const Diagnostic& d = result.diagnostics.front();
    EXPECT_EQ(d.line, 4);
    EXPECT_EQ(d.column, 25);

    CodeEditor editor;
    editor.setText(source);
    editor.setDiagnostics(result.diagnostics, LiveDiagnostics::sourceName);
    EXPECT_TRUE(editor.hasIndicatorAt(CodeEditor::ErrorIndicator, 4, 30));
    EXPECT_TRUE(editor.markersAtLine(3) & (1 << CodeEditor::ErrorMarker));
}

TEST(Diagnostics, StaleResultsAreDropped)
{
    LiveDiagnostics live;
    live.setTrust(Trust::Trusted); // the user's own source
    QSignalSpy done(&live, &LiveDiagnostics::finished);
    QSignalSpy missing(&live, &LiveDiagnostics::unavailable);
    live.compileNow(source);                                      // has an error
    live.compileNow("__global__ void k(int* p) { p[0] = 1; }\n"); // fixed at once
    const bool finished = done.wait(60000);
    ASSERT_TRUE(missing.isEmpty()) << "NVRTC is a build prerequisite";
    ASSERT_TRUE(finished);
    // A third compile, whose result comes after any the first could still deliver: when
    // it arrives, a stale one would have arrived before it.
    live.compileNow("__global__ void k(int* p) { p[0] = 3; }\n");
    ASSERT_TRUE(done.wait(60000));
    ASSERT_EQ(done.count(), 2) << "a stale result arrived";
    EXPECT_TRUE(done.at(0).at(0).value<CompileResult>().ok);
    EXPECT_TRUE(done.at(1).at(0).value<CompileResult>().ok);
}

// An error's mark in the margin is not the debugger's breakpoint dot, drawn in the same
// margin: a new user must not take a compile error for a breakpoint.
TEST(Diagnostics, AnErrorsMarkIsNotABreakpointsDot)
{
    CodeEditor editor;
    new BreakpointMargin(&editor); // owned by the editor
    auto symbol = [&](int marker) { return editor.SendScintilla(QsciScintilla::SCI_MARKERSYMBOLDEFINED, marker); };
    EXPECT_NE(symbol(CodeEditor::ErrorMarker), symbol(BreakpointMargin::BreakpointMarker));
    EXPECT_NE(symbol(CodeEditor::ErrorMarker), symbol(BreakpointMargin::ConditionalMarker));
    EXPECT_NE(symbol(CodeEditor::ErrorMarker), long(QsciScintilla::Circle));
}
