#pragma once
// The editor's breakpoints: a click in the marker margin toggles one on that line, a
// right click edits its condition, the hits it lets go by and whether it waits for all
// of a warp's lanes; a red dot per breakpoint (hollow when it has a condition). While
// the debugger is stopped, the line the focused warp executes next has an arrow in a
// margin of its own, between the dots and the text, and a background: on a line with a
// breakpoint both are seen, as in other debuggers.
// The breakpoints are the window's, kept while no debugger runs; DebugController
// sends them to the session as `break` commands (docs/debugger.md). The same margin
// serves the source editor (a line is `break LINE`) and the PTX view (a line is an
// instruction, `break *PC`): a place function says what `break` takes for a line.
#include <QObject>
#include <QString>

#include <cstdint>
#include <functional>
#include <map>

class QsciScintilla;

namespace kw {

class BreakpointMargin : public QObject {
    Q_OBJECT
public:
    // Markers beside the diagnostics' in the editor's marker margin.
    static constexpr int BreakpointMarker = 4;
    static constexpr int ConditionalMarker = 5;
    static constexpr int CurrentLineMarker = 6;
    static constexpr int CurrentLineBackground = 7; // the whole line, behind the text
    // The arrow's margin (0 line numbers, 1 markers, 2 folding, 3 the profile's figures).
    static constexpr int ArrowMargin = 4;

    struct Breakpoint {
        QString condition;        // empty: every arrival
        std::uint64_t ignore = 0; // hits let go by
        bool allLanes = false;    // stop once all live lanes of a warp have arrived
    };

    // What `break` takes for a 1-based line of the editor ("18", "*24"); empty: no
    // breakpoint can be placed there. By default the line itself.
    using Place = std::function<QString(int line)>;
    // The editor's margin 1 is its symbol margin (CodeEditor's, or one the caller set up).
    explicit BreakpointMargin(QsciScintilla* editor, Place place = {});

    // 1-based lines.
    void toggle(int line);
    void set(int line, const Breakpoint& b);
    void remove(int line);
    const std::map<int, Breakpoint>& breakpoints() const { return breakpoints_; }
    bool has(int line) const { return breakpoints_.count(line) != 0; }
    // The debugger command that places the breakpoint of `line`.
    QString command(int line) const;
    // What `break` takes for `line` (empty: nothing can stop there).
    QString place(int line) const { return place_(line); }
    // The line whose place is `place`; 0: none.
    int lineOf(const QString& place) const;
    // Every breakpoint removed (each announced).
    void clear();

    // The arrow at the focused warp's next line; 0 removes it.
    void setCurrentLine(int line);
    // The arrow's margin takes its width while a debugger runs (the text does not move
    // at each stop), none otherwise.
    void setDebugging(bool on);
    int currentLine() const { return currentLine_; }

signals:
    // A breakpoint was added, changed (its condition...) or removed at `line`.
    void changed(int line);

private:
    void redraw(int line);
    void editMenu(int line);

    QsciScintilla* editor_;
    Place place_;
    std::map<int, Breakpoint> breakpoints_;
    int currentLine_ = 0;
};

} // namespace kw
