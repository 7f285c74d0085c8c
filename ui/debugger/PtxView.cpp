#include "debugger/PtxView.hpp"

#include "debugger/BreakpointMargin.hpp"

#include <Qsci/qsciscintilla.h>

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace kw {

PtxView::PtxView(const QList<QAction*>& motions, QWidget* parent)
    : QWidget(parent)
    , editor_(new QsciScintilla)
{
    editor_->setObjectName("debugPtxEditor");
    editor_->setReadOnly(true);
    editor_->setUtf8(true);
    editor_->setWrapMode(QsciScintilla::WrapNone);
    editor_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    // The pcs are in the text: no line numbers; margin 1 takes the breakpoints, as the editor's.
    editor_->setMarginWidth(0, 0);
    editor_->setMarginType(1, QsciScintilla::SymbolMargin);
    editor_->setMarginWidth(1, 16);
    editor_->setMarginWidth(2, 0);
    margin_ = new BreakpointMargin(editor_, [this](int line) {
        const int pc = pcOf(line);
        return pc < 0 ? QString() : QString("*%1").arg(pc);
    });
    margin_->setDebugging(true); // the arrow's margin: the view is shown only while debugging
    // The dots' margin shows the dots alone: the arrow has its own.
    editor_->setMarginMarkerMask(
        1, (1 << BreakpointMargin::BreakpointMarker) | (1 << BreakpointMargin::ConditionalMarker));
    empty_ = new QLabel(tr("The kernel's PTX shows here while the debugger runs."));
    empty_->setAlignment(Qt::AlignCenter);
    empty_->setWordWrap(true);

    // Buttons, not a toolbar: presentation mode hides the window's toolbars, not these.
    auto* bar = new QHBoxLayout;
    for (QAction* a : motions) {
        auto* b = new QToolButton;
        b->setDefaultAction(a);
        b->setAutoRaise(true);
        bar->addWidget(b);
    }
    auto* hint = new QLabel(tr("Click the margin for a breakpoint at an instruction."));
    hint->setContentsMargins(8, 0, 0, 0);
    hint->setForegroundRole(QPalette::PlaceholderText);
    bar->addWidget(hint, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(empty_);
    layout->addWidget(editor_, 1);
    clear();
}

void PtxView::setListing(const std::vector<DebugLocation>& code, const QStringList& sourceLines)
{
    margin_->clear();
    pcOfLine_.clear();
    lineOfPc_.assign(code.size(), 0);
    QStringList text;
    QString file;
    int line = -1;
    for (std::size_t pc = 0; pc < code.size(); ++pc) {
        const DebugLocation& at = code[pc];
        // A comment where the instructions go on to another line of the source (or another file).
        if (at.line != line || at.file != file) {
            line = at.line;
            file = at.file;
            const QString quoted = line > 0 && line <= sourceLines.size() ? sourceLines[line - 1].trimmed() : QString();
            text << (line > 0 ? QString("// %1:%2  %3").arg(file).arg(line).arg(quoted).trimmed()
                              : QStringLiteral("// (no source line)"));
            pcOfLine_.push_back(-1);
        }
        text << QString("%1  %2").arg(pc, 5).arg(at.instruction);
        pcOfLine_.push_back(int(pc));
        lineOfPc_[pc] = int(pcOfLine_.size());
    }
    editor_->setReadOnly(false);
    editor_->setText(text.join('\n'));
    editor_->setReadOnly(true);
    empty_->setVisible(code.empty());
    editor_->setVisible(!code.empty());
    setCurrentPc(currentPc_);
}

void PtxView::clear()
{
    setListing({}, {});
    setCurrentPc(-1);
}

void PtxView::setCurrentPc(int pc)
{
    currentPc_ = pc;
    margin_->setCurrentLine(lineOf(pc));
}

void PtxView::scaleFont(double factor)
{
    const int points = QFontDatabase::systemFont(QFontDatabase::FixedFont).pointSize();
    editor_->zoomTo(points > 0 ? int(points * (factor - 1) + 0.5) : 0);
}

int PtxView::lineOf(int pc) const { return pc >= 0 && pc < int(lineOfPc_.size()) ? lineOfPc_[std::size_t(pc)] : 0; }

int PtxView::pcOf(int line) const
{
    return line >= 1 && line <= int(pcOfLine_.size()) ? pcOfLine_[std::size_t(line - 1)] : -1;
}

} // namespace kw
