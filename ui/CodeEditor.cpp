#include "CodeEditor.hpp"

#include "CudaLexer.hpp"
#include "FindReplaceDialog.hpp"
#include "ThemeColours.hpp"
#include "UiResources.hpp"

#include <Qsci/qsciapis.h>
#include <Qsci/qscistyle.h>

#include <QApplication>
#include <QEvent>
#include <QFile>
#include <QFontDatabase>
#include <QImage>
#include <QPainter>
#include <QShortcut>
#include <QTextStream>
#include <QToolTip>

#include <map>

namespace kw {

namespace {
constexpr int AnnotationErrorStyle = 200; // extended style numbers, past the lexer's
constexpr int AnnotationWarningStyle = 201;
constexpr int MarkerMargin = 1;

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
} // namespace

CodeEditor::CodeEditor(QWidget* parent)
    : QsciScintilla(parent)
{
    initUiResources();
    setUtf8(true);
    auto* lexer = new CudaLexer(this);
    auto* apis = apis_ = new QsciAPIs(lexer);
    QFile words(":/kw/cuda-api.txt");
    if (words.open(QIODevice::ReadOnly | QIODevice::Text)) {
        QTextStream in(&words);
        while (!in.atEnd()) {
            const QString line = in.readLine().trimmed();
            if (!line.isEmpty())
                apis->add(line);
        }
    }
    apis->prepare();
    setLexer(lexer);

    setAutoIndent(true);
    setIndentationsUseTabs(false);
    setIndentationWidth(4);
    setTabWidth(4);
    setBraceMatching(SloppyBraceMatch);
    setFolding(BoxedTreeFoldStyle, 2);
    setCaretLineVisible(true);
    setAutoCompletionSource(AcsAll);
    setAutoCompletionThreshold(3);
    setAutoCompletionCaseSensitivity(true);
    setCallTipsStyle(CallTipsNoContext);

    setMarginType(0, NumberMargin);
    setMarginLineNumbers(0, true);
    setMarginType(MarkerMargin, SymbolMargin);
    setMarginWidth(MarkerMargin, 16);
    setMarginMarkerMask(MarkerMargin, (1 << ErrorMarker) | (1 << WarningMarker) | (1 << FaultMarker));
    defineErrorMarker(ThemeColours::error(palette()));
    markerDefine(RightTriangle, WarningMarker);
    markerDefine(RightArrow, FaultMarker);
    indicatorDefine(SquiggleIndicator, ErrorIndicator);
    indicatorDefine(SquiggleIndicator, WarningIndicator);
    // Long lines get a horizontal scroll bar as wide as the longest line seen.
    SendScintilla(SCI_SETSCROLLWIDTH, 1);
    SendScintilla(SCI_SETSCROLLWIDTHTRACKING, 1);

    indicatorDefine(TextColorIndicator, HostCodeIndicator);
    setIndicatorForegroundColor(QColor("#9a9a9a"), HostCodeIndicator);

    setAnnotationDisplay(AnnotationBoxed);
    SendScintilla(SCI_SETMOUSEDWELLTIME, 400);
    connect(this, &QsciScintilla::SCN_DWELLSTART, this, &CodeEditor::showTooltipAt);
    connect(this, &QsciScintilla::SCN_DWELLEND, this, [] { QToolTip::hideText(); });
    connect(this, &QsciScintilla::linesChanged, this, &CodeEditor::updateMarginWidth);

    // Scoped to the editor so they never fight the window's shortcuts.
    auto scoped = [this](QKeySequence seq, auto slot) {
        auto* sc = new QShortcut(seq, this, slot);
        sc->setContext(Qt::WidgetWithChildrenShortcut);
    };
    scoped(QKeySequence::Find, [this] { showFind(); });
    scoped(QKeySequence::Replace, [this] { showReplace(); });
    scoped(QKeySequence(Qt::CTRL | Qt::Key_H), [this] { showReplace(); });
    scoped(QKeySequence::FindNext, [this] { findNextMatch(); });
    scoped(QKeySequence(Qt::CTRL | Qt::Key_Space), [this] { autoCompleteFromAll(); });
    scoped(QKeySequence::ZoomIn, [this] { setFontSize(fontSize_ + 1); });
    scoped(QKeySequence::ZoomOut, [this] { setFontSize(fontSize_ - 1); });

    setFontSize(fontSize_);
    applyPalette();
}

void CodeEditor::changeEvent(QEvent* e)
{
    QsciScintilla::changeEvent(e);
    if (e->type() == QEvent::PaletteChange && !applyingPalette_)
        applyPalette();
}

void CodeEditor::applyPalette()
{
    applyingPalette_ = true;
    const QPalette pal = QApplication::palette(this);
    const bool dark = ThemeColours::isDark(pal);
    const QColor paper = pal.color(QPalette::Base), text = pal.color(QPalette::Text);
    const QColor err = ThemeColours::error(pal), warn = ThemeColours::warning(pal);
    // The lexer's colours are made for white paper; on dark paper each keeps its hue
    // and gets the mirrored lightness.
    if (!lexerLight_.size())
        for (int style = 0; style < 128; ++style)
            lexerLight_.push_back(lexer()->color(style));
    for (int style = 0; style < 128; ++style) {
        QColor c = lexerLight_[std::size_t(style)];
        if (dark) {
            float h, sat, l, a;
            c.getHslF(&h, &sat, &l, &a);
            c = QColor::fromHslF(h, sat, std::max(0.55f, 1.0f - l), a);
        }
        lexer()->setColor(style == 0 || c == QColor(Qt::black) ? text : c, style);
        lexer()->setPaper(paper, style);
    }
    lexer()->setDefaultPaper(paper);
    lexer()->setDefaultColor(text);
    setPaper(paper);
    setColor(text);
    setCaretForegroundColor(text);
    setCaretLineBackgroundColor(ThemeColours::tint(pal, pal.color(QPalette::Highlight), 0.08));
    setMarginsBackgroundColor(pal.color(QPalette::Window));
    setMarginsForegroundColor(pal.color(QPalette::PlaceholderText));
    setFoldMarginColors(pal.color(QPalette::Window), pal.color(QPalette::Window));
    setSelectionBackgroundColor(pal.color(QPalette::Highlight));
    setSelectionForegroundColor(pal.color(QPalette::HighlightedText));
    defineErrorMarker(err);
    setMarkerBackgroundColor(warn, WarningMarker);
    setMarkerForegroundColor(warn, WarningMarker);
    setMarkerBackgroundColor(err, FaultMarker);
    setMarkerForegroundColor(err, FaultMarker);
    setIndicatorForegroundColor(err, ErrorIndicator);
    setIndicatorForegroundColor(warn, WarningIndicator);
    redrawAnnotations();
    applyingPalette_ = false;
}

void CodeEditor::setFaultLine(int line) { setFaultLines(line > 0 ? QList<int>{line} : QList<int>{}); }

void CodeEditor::setFaultLines(const QList<int>& list)
{
    markerDeleteAll(FaultMarker);
    faultLines_.clear();
    for (int line : list)
        if (line > 0 && line <= lines() && !faultLines_.contains(line)) {
            faultLines_ << line;
            markerAdd(line - 1, FaultMarker);
        }
}

void CodeEditor::setWrapLongLines(bool on)
{
    setWrapMode(on ? WrapWord : WrapNone);
    setWrapVisualFlags(on ? WrapFlagByBorder : WrapFlagNone);
}

void CodeEditor::defineErrorMarker(const QColor& colour)
{
    // A cross on a square, not a dot: the debugger marks a breakpoint with a red dot in
    // the same margin, and an error must not be taken for one.
    QImage image(12, 12, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(colour);
    p.drawRoundedRect(QRectF(0, 0, 12, 12), 2, 2);
    p.setPen(QPen(Qt::white, 2, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(QPointF(3.5, 3.5), QPointF(8.5, 8.5));
    p.drawLine(QPointF(8.5, 3.5), QPointF(3.5, 8.5));
    p.end();
    markerDefine(image, ErrorMarker);
}

CodeEditor::~CodeEditor()
{
    // Preparation runs on a thread of its own; it must not outlive the lexer.
    apis_->cancelPreparation();
}

void CodeEditor::setFontSize(int points)
{
    fontSize_ = std::clamp(points, 6, 48);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setPointSize(fontSize_);
    lexer()->setDefaultFont(mono);
    lexer()->setFont(mono);
    for (int style = 0; style < 128; ++style) {
        QFont f = lexer()->font(style);
        f.setFamily(mono.family());
        f.setPointSize(fontSize_);
        lexer()->setFont(f, style);
    }
    setMarginsFont(mono);
    updateMarginWidth();
    redrawAnnotations();
    emit fontSizeChanged(fontSize_);
}

void CodeEditor::updateMarginWidth()
{
    // Room for the widest line number plus one digit so it never jitters.
    setMarginWidth(0, QString(QString::number(std::max(1, lines())).size() + 1, '9'));
}

std::pair<long, long> CodeEditor::tokenRange(int line, int column) const
{
    const int l = std::max(0, line - 1);
    auto* self = const_cast<CodeEditor*>(this);
    const long lineStart = self->SendScintilla(SCI_POSITIONFROMLINE, l);
    const long lineEnd = self->SendScintilla(SCI_GETLINEENDPOSITION, l);
    if (lineStart < 0)
        return {0, 0};
    const QByteArray bytes = self->text(l).toUtf8();
    if (column <= 0) {
        // No column: underline the line's text without its indentation.
        int first = 0;
        while (first < bytes.size() && (bytes[first] == ' ' || bytes[first] == '\t'))
            ++first;
        return {lineStart + first, std::max(lineStart + first + 1, lineEnd)};
    }
    long start = lineStart + column - 1;
    start = std::min(start, std::max(lineStart, lineEnd - 1));
    long end = start;
    const long offset = start - lineStart;
    if (offset < bytes.size() && isWordChar(bytes[qsizetype(offset)])) {
        long i = offset;
        while (i < bytes.size() && isWordChar(bytes[qsizetype(i)]))
            ++i;
        end = lineStart + i;
    } else {
        end = start + 1;
    }
    return {start, std::min(std::max(end, start + 1), std::max(lineEnd, start + 1))};
}

void CodeEditor::setDiagnostics(const std::vector<Diagnostic>& diagnostics, const std::string& sourceName)
{
    diagnostics_ = diagnostics;
    ranges_.clear();
    drawn_.clear();
    const long length = SendScintilla(SCI_GETLENGTH);
    for (int ind : {ErrorIndicator, WarningIndicator}) {
        SendScintilla(SCI_SETINDICATORCURRENT, ind);
        SendScintilla(SCI_INDICATORCLEARRANGE, 0UL, length);
    }
    markerDeleteAll(ErrorMarker);
    markerDeleteAll(WarningMarker);

    for (const Diagnostic& d : diagnostics_) {
        if (d.line <= 0 || d.line > lines())
            continue;
        if (!d.file.empty() && !sourceName.empty() && d.file != sourceName)
            continue;
        if (d.severity != Severity::Error && d.severity != Severity::Warning)
            continue;
        const bool error = d.severity == Severity::Error;
        const auto range = tokenRange(d.line, d.column);
        SendScintilla(SCI_SETINDICATORCURRENT, error ? ErrorIndicator : WarningIndicator);
        SendScintilla(SCI_INDICATORFILLRANGE, range.first, range.second - range.first);
        markerAdd(d.line - 1, error ? ErrorMarker : WarningMarker);
        ranges_.push_back(range);
        drawn_.push_back(&d);
    }
    redrawAnnotations();
}

void CodeEditor::setHostCode(const std::vector<HostCodeRange>& ranges)
{
    hostCode_ = ranges;
    SendScintilla(SCI_SETINDICATORCURRENT, HostCodeIndicator);
    SendScintilla(SCI_INDICATORCLEARRANGE, 0UL, SendScintilla(SCI_GETLENGTH));
    for (const HostCodeRange& r : hostCode_) {
        if (r.firstLine < 1 || r.firstLine > lines())
            continue;
        const long start = SendScintilla(SCI_POSITIONFROMLINE, r.firstLine - 1);
        const long end = SendScintilla(SCI_GETLINEENDPOSITION, std::min(r.lastLine, lines()) - 1);
        SendScintilla(SCI_INDICATORFILLRANGE, start, end - start);
    }
    redrawAnnotations();
}

void CodeEditor::setAnnotationsVisible(bool on)
{
    annotationsOn_ = on;
    redrawAnnotations();
}

void CodeEditor::redrawAnnotations()
{
    clearAnnotations();
    if (!annotationsOn_)
        return;
    QFont small = lexer()->defaultFont();
    small.setPointSize(std::max(6, fontSize_ - 1));
    const QPalette pal = QApplication::palette(this);
    const QColor text = pal.color(QPalette::Text);
    QsciStyle err(AnnotationErrorStyle, "error", text, ThemeColours::tint(pal, ThemeColours::error(pal)), small);
    QsciStyle warn(AnnotationWarningStyle, "warning", text, ThemeColours::tint(pal, ThemeColours::warning(pal)), small);
    std::map<int, std::pair<QString, bool>> byLine; // line -> text, any error
    for (const Diagnostic* d : drawn_) {
        auto& [text, anyError] = byLine[d->line - 1];
        if (!text.isEmpty())
            text += '\n';
        text += QString::fromUtf8(toString(d->severity)) + ": " + QString::fromStdString(d->message);
        anyError = anyError || d->severity == Severity::Error;
    }
    QsciStyle host(AnnotationWarningStyle + 1, "host", QColor("#555555"), QColor("#eeeeee"), small);
    // One note for each run of adjacent host parts (a block of host includes is one note).
    for (std::size_t k = 0; k < hostCode_.size();) {
        const int first = hostCode_[k].firstLine;
        int last = hostCode_[k].lastLine;
        QStringList what;
        for (; k < hostCode_.size() && hostCode_[k].firstLine <= last + 1; ++k) {
            what << QString::fromStdString(hostCode_[k].what);
            last = std::max(last, hostCode_[k].lastLine);
        }
        if (first >= 1 && first <= lines() && !byLine.count(first - 1))
            annotate(first - 1, tr("not compiled: host code (%1)").arg(what.join(", ")), host);
    }
    for (const auto& [line, entry] : byLine)
        annotate(line, entry.first, entry.second ? err : warn);
}

bool CodeEditor::hasIndicatorAt(int indicator, int line, int column) const
{
    auto* self = const_cast<CodeEditor*>(this);
    const long pos = self->positionFromLineIndex(line - 1, column - 1);
    return self->SendScintilla(SCI_INDICATORVALUEAT, indicator, pos) != 0;
}

QStringList CodeEditor::messagesAt(int line, int column) const
{
    auto* self = const_cast<CodeEditor*>(this);
    const long pos = self->positionFromLineIndex(line - 1, column - 1);
    QStringList out;
    for (std::size_t i = 0; i < drawn_.size(); ++i)
        if (pos >= ranges_[i].first && pos < ranges_[i].second)
            out << QString::fromUtf8(toString(drawn_[i]->severity)) + ": " + QString::fromStdString(drawn_[i]->message);
    return out;
}

void CodeEditor::showTooltipAt(int position, int x, int y)
{
    if (position < 0)
        return;
    int line = 0, index = 0;
    lineIndexFromPosition(position, &line, &index);
    const QStringList messages = messagesAt(line + 1, index + 1);
    if (!messages.isEmpty())
        QToolTip::showText(mapToGlobal(QPoint(x, y)), messages.join('\n'), this);
}

void CodeEditor::goTo(int line, int column)
{
    const int l = std::max(0, line - 1);
    setCursorPosition(l, std::max(0, column - 1));
    ensureLineVisible(l);
    setFocus();
}

void CodeEditor::showFind()
{
    if (!find_)
        find_ = new FindReplaceDialog(this, this);
    find_->showFind(false);
}

void CodeEditor::showReplace()
{
    if (!find_)
        find_ = new FindReplaceDialog(this, this);
    find_->showFind(true);
}

void CodeEditor::findNextMatch()
{
    if (!find_)
        showFind();
    else
        find_->findNext();
}

} // namespace kw
