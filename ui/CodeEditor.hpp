#pragma once
// The kernel source editor: CUDA highlighting, folding, completion, find and
// replace, and diagnostics shown as squiggles, margin markers, inline
// annotations and tooltips.
#include "compile/Diagnostic.hpp"
#include "compile/HostCodeFilter.hpp"

#include <Qsci/qsciscintilla.h>

class QsciAPIs;

#include <vector>

namespace kw {

class FindReplaceDialog;

class CodeEditor : public QsciScintilla {
    Q_OBJECT
public:
    // Indicator and marker numbers used for diagnostics (tests look them up).
    static constexpr int ErrorIndicator = 8;
    static constexpr int WarningIndicator = 9;
    static constexpr int ErrorMarker = 1;
    static constexpr int WarningMarker = 2;
    static constexpr int HostCodeIndicator = 10;
    static constexpr int FaultMarker = 3;

    explicit CodeEditor(QWidget* parent = nullptr);
    ~CodeEditor() override;

    void setFontSize(int points);
    int fontSize() const { return fontSize_; }

    // Replaces the shown diagnostics. Only those located in sourceName (or with
    // no file) are drawn; lines and columns are 1-based as the core reports them.
    void setDiagnostics(const std::vector<Diagnostic>& diagnostics, const std::string& sourceName);
    const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
    // Dims host code NVRTC does not see, with a note on its first line.
    void setHostCode(const std::vector<HostCodeRange>& ranges);
    void setAnnotationsVisible(bool on);
    bool annotationsVisible() const { return annotationsOn_; }

    // True when indicator is set at the 1-based line/column.
    bool hasIndicatorAt(int indicator, int line, int column) const;
    // The diagnostic messages covering a 1-based line/column.
    QStringList messagesAt(int line, int column) const;

    // Marks the line a kernel faulted on (1-based); 0 clears the mark.
    void setFaultLine(int line);
    // Several lines at fault at once (both accesses of a race); the first is faultLine().
    void setFaultLines(const QList<int>& lines);
    int faultLine() const { return faultLines_.isEmpty() ? 0 : faultLines_.front(); }
    const QList<int>& faultLines() const { return faultLines_; }
    // Long lines wrap at the window's edge (presentation mode) instead of scrolling.
    void setWrapLongLines(bool on);

public slots:
    void goTo(int line, int column); // 1-based
    void showFind();
    void showReplace();
    void findNextMatch();

signals:
    void fontSizeChanged(int points); // margins drawn by others follow the text's size

protected:
    void changeEvent(QEvent* e) override;

private:
    // Paper, text and state colours from the palette: light and dark desktops alike.
    void applyPalette();
    void defineErrorMarker(const QColor& colour);
    void updateMarginWidth();
    void redrawAnnotations();
    void showTooltipAt(int position, int x, int y);
    // Byte range [start, end) of the token at 1-based line/column.
    std::pair<long, long> tokenRange(int line, int column) const;

    int fontSize_ = 11;
    QList<int> faultLines_;
    std::vector<QColor> lexerLight_; // the lexer's own colours, for light paper
    bool applyingPalette_ = false;
    bool annotationsOn_ = true;
    std::vector<Diagnostic> diagnostics_;
    std::vector<std::pair<long, long>> ranges_; // per drawn diagnostic
    std::vector<const Diagnostic*> drawn_;
    std::vector<HostCodeRange> hostCode_;
    FindReplaceDialog* find_ = nullptr;
    QsciAPIs* apis_ = nullptr;
};

} // namespace kw
