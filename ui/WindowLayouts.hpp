#pragma once
// Where the window's docks go: the default layout (made for 1366x768 and 1280x720 first,
// then grown), the debugger's while a debug session runs, and presentation mode's. Each
// mode returns the window exactly as it found it (its saveState() and geometry, byte for
// byte), and only the normal layout is ever offered for saving: never a mode's.
#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QRect>
#include <QWidget>
#include <Qt>

#include <vector>

class QDockWidget;
class QMainWindow;

namespace kw {

class WindowLayouts : public QObject {
    Q_OBJECT
public:
    struct Docks {
        QDockWidget* notes = nullptr;   // in front of the left column's tabs
        std::vector<QDockWidget*> left; // tabbed behind the notes (variables, steps)
        QDockWidget* launch = nullptr;
        QDockWidget* arguments = nullptr;
        std::vector<QDockWidget*> results;       // the bottom tabs, Results first
        std::vector<QDockWidget*> hiddenAtFirst; // docks shown only when they have something
        std::vector<QDockWidget*> debugRight;    // Lanes first, then the call stack and breakpoints
        std::vector<QDockWidget*> debugBottom;   // Shared memory, Warps
        std::vector<QDockWidget*> notPresented;  // hidden in presentation mode
    };
    WindowLayouts(QMainWindow* window, Docks docks);

    // The docks' sides and tabs; before the window is first shown. From then on the launch
    // dock grows when its panel does (fitLaunchHeight).
    void arrange();
    // The docks' sizes for the window's size; once it is shown at it. A wide left column
    // for a document of steps (its list has columns).
    void applyDefaultSizes(bool wideLeft);

    // The run's views come with the first run or compile: until then the editor has the
    // window's height (a laptop's editor shows two dozen lines more).
    void showResults();
    // The first run whose Results show an image (a heat map) gives the Results dock more
    // height, once (the image keeps its shape, so its size is the dock's height): two
    // fifths of a tall window; on a laptop's only the `editorSpare` pixels the editor
    // does not need for its source's lines (at most two dozen).
    void makeRoomForImage(int editorSpare);

    void setDebugging(bool on);
    // Docks and window state (full screen); the fonts are the caller's.
    void setPresenting(bool on);
    bool presenting() const { return presenting_; }
    bool debugging() const { return debugging_; }

    // What to keep for the next start: the layout and geometry as they are outside any
    // mode, whatever mode is on now.
    QByteArray normalState() const;
    QByteArray normalGeometry() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void arrangeDebugging();
    void fitLaunchHeight();
    void arrangePresentation();
    // One group of tabs on the right at `share` of the window's width, `front` in front.
    void tabOnTheRight(QDockWidget* front, const std::vector<QDockWidget*>& others, double share);
    QDockWidget* frontResult() const;
    // restoreState now and once more when the window has its old size back (a window
    // manager answers showNormal later).
    void restoreLater(const QByteArray& state, const QByteArray& geometry = {});
    // In presentation mode the large fonts would ask for more room than a projector
    // has: the editor and the docks shown may be smaller than their fonts ask.
    void capMinimumWidths();
    void putBack();
    void settle(); // lays the window out now // the window's state and geometry of before presentation mode
    void uncapMinimumWidths();

    QMainWindow* window_;
    Docks d_;
    bool resultsWaiting_ = false; // hidden by arrange() until the first result
    bool imageRoomMade_ = false;  // makeRoomForImage acts once
    bool presenting_ = false;
    int launchRetries_ = 0; // fitLaunchHeight's looks again since it last fitted
    bool debugging_ = false;
    QByteArray normal_;                  // the layout outside any mode, while one is on
    QByteArray debugState_;              // the debugger's layout, while presentation mode covers it
    QByteArray geometry_;                // the window's geometry before presentation mode
    Qt::WindowStates windowState_;       // maximised or not, before presentation mode
    QRect rect_;                         // and its geometry
    QByteArray pendingState_;            // applied again at the next resize (restoreLater)
    bool debuggingWhenRestored_ = false; // a restore waiting is dropped when the debugger comes or goes
    std::vector<std::pair<QPointer<QWidget>, QSize>> capped_; // and their own minimum sizes
};

} // namespace kw
