#pragma once
// The debugged kernel's PTX as the simulator runs it (docs/debugger.md, "In the window"):
// its instructions in pc order, each source line that begins a run of them as a comment
// above it, read-only. The focused warp's next instruction has the editor's arrow and
// background; the margin places breakpoints on instructions (`break *PC`) as the editor's
// does on lines (BreakpointMargin); the toolbar's instruction motions step through it.
#include "debugger/DebugReply.hpp"

#include <QList>
#include <QStringList>
#include <QWidget>

#include <vector>

class QAction;
class QLabel;
class QsciScintilla;

namespace kw {

class BreakpointMargin;

class PtxView : public QWidget {
    Q_OBJECT
public:
    // `motions`: the debug toolbar's actions to show above the listing (Instr, ◀ Instr).
    explicit PtxView(const QList<QAction*>& motions = {}, QWidget* parent = nullptr);

    // The instructions of a `ptx` answer (pc = index) and the kernel's source, whose lines
    // the comments quote. The breakpoints of an earlier listing are dropped.
    void setListing(const std::vector<DebugLocation>& code, const QStringList& sourceLines);
    // No listing (the debugger ended); its breakpoints are dropped.
    void clear();
    // The arrow at the focused warp's next instruction; -1 removes it.
    void setCurrentPc(int pc);
    int currentPc() const { return currentPc_; }
    // The listing's text as large as `factor` times its own (presentation mode), 1: as it is.
    void scaleFont(double factor);

    // The listing's 1-based line of an instruction (0: none), and the instruction of a line (-1: a comment).
    int lineOf(int pc) const;
    int pcOf(int line) const;
    int instructions() const { return int(lineOfPc_.size()); }

    QsciScintilla* editor() const { return editor_; }
    BreakpointMargin* margin() const { return margin_; }

private:
    QsciScintilla* editor_;
    BreakpointMargin* margin_;
    QLabel* empty_;
    std::vector<int> pcOfLine_; // index: line - 1
    std::vector<int> lineOfPc_; // index: pc
    int currentPc_ = -1;
};

} // namespace kw
