#include "profile/ProfileMargin.hpp"

#include "CodeEditor.hpp"
#include "profile/HeatScale.hpp"
#include "profile/ProfileSource.hpp"
#include "profile/ProfileSummary.hpp"

#include <Qsci/qscilexer.h>
#include <Qsci/qscistyle.h>

#include <QEvent>
#include <QHelpEvent>
#include <QToolTip>

#include <algorithm>

namespace kw {

ProfileMargin::ProfileMargin(CodeEditor* editor)
    : QObject(editor)
    , editor_(editor)
{
    editor_->setMarginType(Margin, QsciScintilla::TextMarginRightJustified);
    editor_->setMarginWidth(Margin, 0);
    editor_->setMarginSensitivity(Margin, true);
    connect(editor_, &QsciScintilla::marginClicked, this, [this](int margin, int line, Qt::KeyboardModifiers) {
        if (margin == Margin && lines_.count(line + 1))
            emit lineClicked(line + 1);
    });
    connect(editor_, &CodeEditor::fontSizeChanged, this, &ProfileMargin::redraw);
    editor_->installEventFilter(this);
    editor_->viewport()->installEventFilter(this);
}

void ProfileMargin::setProfile(const KernelProfile& profile, const QString& sourceName)
{
    lines_.clear();
    const ProfileSource source({}, sourceName);
    for (const LineProfile& l : profile.lines) {
        if (l.line <= 0 || !source.isShown(l.file))
            continue;
        auto [it, fresh] = lines_.try_emplace(l.line, l);
        if (!fresh) {
            it->second.counters += l.counters;
            it->second.extras += l.extras;
        }
    }
    redraw();
}

void ProfileMargin::setMetric(ProfileMetric metric)
{
    metric_ = metric;
    redraw();
}

void ProfileMargin::clear()
{
    lines_.clear();
    redraw();
}

QColor ProfileMargin::colourOf(int line) const
{
    auto it = lines_.find(line);
    if (it == lines_.end())
        return {};
    return HeatScale::colour(ProfileMetrics::value(metric_, it->second), maximum_, editor_->palette());
}

QString ProfileMargin::textOf(int line) const
{
    auto it = lines_.find(line);
    if (it == lines_.end())
        return {};
    const std::uint64_t v = ProfileMetrics::value(metric_, it->second);
    return v ? ProfileSummary::compact(v) : QString();
}

QString ProfileMargin::tooltipFor(int line) const
{
    auto it = lines_.find(line);
    return it == lines_.end() ? QString() : ProfileSummary::lineTooltip(it->second);
}

int ProfileMargin::lineAt(int y) const
{
    auto* e = editor_;
    const long height = std::max<long>(1, e->SendScintilla(QsciScintilla::SCI_TEXTHEIGHT, 0));
    const long first = e->SendScintilla(QsciScintilla::SCI_GETFIRSTVISIBLELINE);
    const long doc = e->SendScintilla(QsciScintilla::SCI_DOCLINEFROMVISIBLE, first + y / height);
    return doc >= 0 && doc < e->lines() ? int(doc) + 1 : 0;
}

std::pair<int, int> ProfileMargin::marginSpan() const
{
    int left = 0;
    for (int m = 0; m < Margin; ++m)
        left += editor_->marginWidth(m);
    return {left, left + editor_->marginWidth(Margin)};
}

void ProfileMargin::redraw()
{
    editor_->clearMarginText();
    maximum_ = 0;
    for (const auto& [line, l] : lines_)
        maximum_ = std::max(maximum_, ProfileMetrics::value(metric_, l));
    if (lines_.empty()) {
        editor_->setMarginWidth(Margin, 0);
        return;
    }
    const QFont font = editor_->lexer() ? editor_->lexer()->defaultFont() : editor_->font();
    editor_->setMarginWidth(Margin, QStringLiteral(" 99.9k "));
    const QPalette pal = editor_->palette();
    for (const auto& [line, l] : lines_) {
        const std::uint64_t value = ProfileMetrics::value(metric_, l);
        const int level = HeatScale::level(value, maximum_);
        if (level == 0 || line > editor_->lines())
            continue;
        const QColor paper = HeatScale::colour(level, pal);
        const QsciStyle style(FirstStyle + level, QStringLiteral("profile heat %1").arg(level),
                              HeatScale::textOn(paper), paper, font);
        editor_->setMarginText(line - 1, ProfileSummary::compact(value) + QLatin1Char(' '), style);
    }
}

bool ProfileMargin::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == editor_ && event->type() == QEvent::PaletteChange)
        redraw();
    if (watched == editor_->viewport() && event->type() == QEvent::ToolTip && isShown()) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto [left, right] = marginSpan();
        if (help->pos().x() >= left && help->pos().x() < right) {
            const QString tip = tooltipFor(lineAt(help->pos().y()));
            if (!tip.isEmpty()) {
                QToolTip::showText(help->globalPos(), tip, editor_->viewport());
                return true;
            }
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace kw
