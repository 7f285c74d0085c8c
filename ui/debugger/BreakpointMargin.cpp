#include "debugger/BreakpointMargin.hpp"

#include <Qsci/qsciscintilla.h>

#include <QCursor>
#include <QInputDialog>
#include <QMenu>

namespace kw {

namespace {
constexpr int MarkerMargin = 1; // the editor's symbol margin
}

BreakpointMargin::BreakpointMargin(QsciScintilla* editor, Place place)
    : QObject(editor)
    , editor_(editor)
    , place_(place ? std::move(place) : Place([](int line) { return QString::number(line); }))
{
    editor_->markerDefine(QsciScintilla::Circle, BreakpointMarker);
    editor_->setMarkerBackgroundColor(QColor("#d32f2f"), BreakpointMarker);
    editor_->setMarkerForegroundColor(QColor("#8e0000"), BreakpointMarker);
    editor_->markerDefine(QsciScintilla::Circle, ConditionalMarker);
    editor_->setMarkerBackgroundColor(QColor("#ffcdd2"), ConditionalMarker);
    editor_->setMarkerForegroundColor(QColor("#d32f2f"), ConditionalMarker);
    editor_->markerDefine(QsciScintilla::RightArrow, CurrentLineMarker);
    editor_->setMarkerBackgroundColor(QColor("#f9a825"), CurrentLineMarker);
    editor_->setMarkerForegroundColor(QColor("#6d4c00"), CurrentLineMarker);
    editor_->markerDefine(QsciScintilla::Background, CurrentLineBackground);
    editor_->setMarkerBackgroundColor(QColor("#ffe08a"), CurrentLineBackground);
    const int mask = editor_->marginMarkerMask(MarkerMargin);
    editor_->setMarginMarkerMask(MarkerMargin, mask | (1 << BreakpointMarker) | (1 << ConditionalMarker));
    editor_->setMarginSensitivity(MarkerMargin, true);
    // The arrow never shares the dots' margin, where one would hide the other.
    editor_->setMarginType(ArrowMargin, QsciScintilla::SymbolMargin);
    editor_->setMarginMarkerMask(ArrowMargin, 1 << CurrentLineMarker);
    editor_->setMarginWidth(ArrowMargin, 0);
    editor_->setMarginSensitivity(ArrowMargin, true);
    connect(editor_, &QsciScintilla::marginClicked, this, [this](int margin, int line, Qt::KeyboardModifiers) {
        if (margin == MarkerMargin || margin == ArrowMargin)
            toggle(line + 1);
    });
    connect(editor_, &QsciScintilla::marginRightClicked, this, [this](int margin, int line, Qt::KeyboardModifiers) {
        if (margin == MarkerMargin || margin == ArrowMargin)
            editMenu(line + 1);
    });
}

void BreakpointMargin::toggle(int line)
{
    if (has(line))
        remove(line);
    else
        set(line, {});
}

void BreakpointMargin::set(int line, const Breakpoint& b)
{
    if (place_(line).isEmpty())
        return;
    breakpoints_[line] = b;
    redraw(line);
    emit changed(line);
}

void BreakpointMargin::remove(int line)
{
    if (!breakpoints_.erase(line))
        return;
    redraw(line);
    emit changed(line);
}

int BreakpointMargin::lineOf(const QString& place) const
{
    for (int line = 1; line <= editor_->lines(); ++line)
        if (place_(line) == place)
            return line;
    return 0;
}

void BreakpointMargin::clear()
{
    while (!breakpoints_.empty())
        remove(breakpoints_.begin()->first);
}

QString BreakpointMargin::command(int line) const
{
    const auto it = breakpoints_.find(line);
    if (it == breakpoints_.end())
        return {};
    QString c = "break " + place_(line);
    if (!it->second.condition.trimmed().isEmpty())
        c += " if " + it->second.condition.trimmed();
    if (it->second.ignore)
        c += QString(" ignore %1").arg(it->second.ignore);
    if (it->second.allLanes)
        c += " all";
    return c;
}

void BreakpointMargin::setCurrentLine(int line)
{
    editor_->markerDeleteAll(CurrentLineMarker);
    editor_->markerDeleteAll(CurrentLineBackground);
    currentLine_ = line;
    if (line > 0) {
        editor_->markerAdd(line - 1, CurrentLineMarker);
        editor_->markerAdd(line - 1, CurrentLineBackground);
        editor_->ensureLineVisible(line - 1);
    }
}

void BreakpointMargin::setDebugging(bool on)
{
    editor_->setMarginWidth(ArrowMargin, on ? editor_->marginWidth(MarkerMargin) : 0);
}

void BreakpointMargin::redraw(int line)
{
    editor_->markerDelete(line - 1, BreakpointMarker);
    editor_->markerDelete(line - 1, ConditionalMarker);
    const auto it = breakpoints_.find(line);
    if (it == breakpoints_.end())
        return;
    const bool plain = it->second.condition.trimmed().isEmpty() && !it->second.ignore && !it->second.allLanes;
    editor_->markerAdd(line - 1, plain ? BreakpointMarker : ConditionalMarker);
}

void BreakpointMargin::editMenu(int line)
{
    const QString place = place_(line);
    if (place.isEmpty())
        return;
    const QString where = place.startsWith('*') ? tr("pc %1").arg(place.mid(1)) : tr("line %1").arg(line);
    Breakpoint b = has(line) ? breakpoints_.at(line) : Breakpoint{};
    QMenu menu(editor_);
    QAction* toggleAct = menu.addAction(has(line) ? tr("Remove breakpoint") : tr("Add breakpoint"));
    QAction* conditionAct = menu.addAction(tr("Condition…"));
    QAction* ignoreAct = menu.addAction(tr("Hits to let go by…"));
    QAction* allAct = menu.addAction(tr("Stop when all lanes of the warp have arrived"));
    allAct->setCheckable(true);
    allAct->setChecked(b.allLanes);
    QAction* chosen = menu.exec(QCursor::pos());
    if (!chosen)
        return;
    if (chosen == toggleAct) {
        toggle(line);
        return;
    }
    bool ok = true;
    if (chosen == conditionAct) {
        const QString c = QInputDialog::getText(
            editor_, tr("Breakpoint condition"),
            tr("Stop at %1 for a lane where this holds (e.g. threadIdx.x == 5, %f4 > 100):").arg(where),
            QLineEdit::Normal, b.condition, &ok);
        if (ok)
            b.condition = c;
    } else if (chosen == ignoreAct) {
        const int n = QInputDialog::getInt(editor_, tr("Hits to let go by"),
                                           tr("Stop at %1 only after this many hits:").arg(where), int(b.ignore), 0,
                                           1 << 30, 1, &ok);
        if (ok)
            b.ignore = std::uint64_t(n);
    } else if (chosen == allAct)
        b.allLanes = allAct->isChecked();
    if (ok)
        set(line, b);
}

} // namespace kw
