#pragma once
// Colours the editor's source lines by a profile counter: a margin beside the code,
// one cell per counted line with the value written on its heat colour (HeatScale).
// A margin and not the line's background, so the code stays as legible as ever on
// light and dark paper alike. Hovering a cell shows the line's counters; clicking it
// reports the line.
#include "launch/KernelProfile.hpp"
#include "profile/ProfileMetric.hpp"

#include <QColor>
#include <QObject>
#include <QString>

#include <map>

namespace kw {

class CodeEditor;

class ProfileMargin : public QObject {
    Q_OBJECT
public:
    // After line numbers, markers and folding: right beside the code.
    static constexpr int Margin = 3;
    // Scintilla styles of the heat levels, past the lexer's and the annotations'.
    static constexpr int FirstStyle = 210;

    explicit ProfileMargin(CodeEditor* editor);

    // Lines of other files than sourceName (included headers) are not the editor's.
    void setProfile(const KernelProfile& profile, const QString& sourceName);
    void setMetric(ProfileMetric metric);
    ProfileMetric metric() const { return metric_; }
    void clear();
    bool isShown() const { return !lines_.empty(); }
    std::uint64_t maximum() const { return maximum_; }

    // What the margin shows for a 1-based line: its colour (invalid when none) and text.
    QColor colourOf(int line) const;
    QString textOf(int line) const;
    QString tooltipFor(int line) const; // empty for a line without counters
    // The 1-based line drawn at the viewport's y; 0 past the last line.
    int lineAt(int y) const;
    // The margin's horizontal extent in the viewport.
    std::pair<int, int> marginSpan() const;

signals:
    void lineClicked(int line); // 1-based

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void redraw();

    CodeEditor* editor_;
    std::map<int, LineProfile> lines_; // by 1-based line
    ProfileMetric metric_ = ProfileMetric::Cost;
    std::uint64_t maximum_ = 0;
};

} // namespace kw
