#include "WindowLayouts.hpp"

#include <QCoreApplication>
#include <QDockWidget>
#include <QEvent>
#include <QLayout>
#include <QMainWindow>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QTimer>

#include <algorithm>

namespace kw {

namespace {
bool contains(const std::vector<QDockWidget*>& docks, const QDockWidget* d)
{
    return std::find(docks.begin(), docks.end(), d) != docks.end();
}

// The width a dock's panel asks for; a scrolled panel's, with room for its vertical bar.
int wantedWidth(const QDockWidget* d)
{
    if (const auto* scroll = qobject_cast<const QScrollArea*>(d->widget()); scroll && scroll->widget())
        return scroll->widget()->sizeHint().width() + 2 * scroll->frameWidth()
            + scroll->style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 4;
    return d->widget()->sizeHint().width() + 4;
}

// The least a dock's panel takes without scrolling sideways: a scrolled panel's minimum
// (its fields at their least), any other's wish (the arguments' columns, whole).
int neededWidth(const QDockWidget* d)
{
    if (const auto* scroll = qobject_cast<const QScrollArea*>(d->widget()); scroll && scroll->widget())
        return scroll->widget()->minimumSizeHint().width() + 2 * scroll->frameWidth()
            + scroll->style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 4;
    return wantedWidth(d);
}

// The width of the left column's widest minimum (a document's list of steps has columns).
int leftMinimum(const std::vector<QDockWidget*>& docks)
{
    int least = 0;
    for (const QDockWidget* d : docks)
        if (!d->isHidden())
            least = std::max(least, d->minimumSizeHint().width());
    return least;
}

// The run's views under the editor: low enough that a laptop's editor keeps two dozen lines.
int resultsHeight(int windowHeight) { return int(windowHeight * 0.22); }

// The run's views when they show an image, in a window taller than a laptop's: two
// fifths of it (at 1080 lines the editor keeps about 30 lines). On a laptop the image
// takes only what the editor's source leaves empty.
constexpr int imageRoomFromHeight = 900;
int imageResultsHeight(int windowHeight) { return int(windowHeight * 0.4); }

int wantedHeight(const QDockWidget* d)
{
    if (const auto* scroll = qobject_cast<const QScrollArea*>(d->widget()); scroll && scroll->widget())
        return scroll->widget()->sizeHint().height() + 2 * scroll->frameWidth() + 4;
    return d->widget()->sizeHint().height() + 4;
}
} // namespace

WindowLayouts::WindowLayouts(QMainWindow* window, Docks docks)
    : QObject(window)
    , window_(window)
    , d_(std::move(docks))
{
}

void WindowLayouts::arrange()
{
    // Left: the notes, with the variables and steps behind them. Right, the window's full
    // height: the launch fields over the arguments. Bottom, under the editor and notes
    // only: the run's views as tabs, low enough that the editor keeps its lines.
    window_->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    window_->setCorner(Qt::BottomLeftCorner, Qt::BottomDockWidgetArea);
    for (QDockWidget* d : d_.left)
        window_->tabifyDockWidget(d_.notes, d);
    window_->splitDockWidget(d_.launch, d_.arguments, Qt::Vertical);
    for (std::size_t i = 1; i < d_.results.size(); ++i)
        window_->tabifyDockWidget(d_.results.front(), d_.results[i]);
    // The debugger's docks are tabs from the start: shown at once as rows, their
    // heights would add up past a laptop's screen and the window would grow to hold them.
    for (std::size_t i = 1; i < d_.debugRight.size(); ++i)
        window_->tabifyDockWidget(d_.debugRight.front(), d_.debugRight[i]);
    for (std::size_t i = 1; i < d_.debugBottom.size(); ++i)
        window_->tabifyDockWidget(d_.debugBottom.front(), d_.debugBottom[i]);
    for (QDockWidget* d : d_.hiddenAtFirst)
        d->hide();
    for (QDockWidget* d : d_.results)
        d->hide();
    resultsWaiting_ = true;
    d_.notes->raise();
    // fitLaunchHeight: when the panel grows, or its view shrinks.
    if (const auto* scroll = qobject_cast<const QScrollArea*>(d_.launch->widget()); scroll && scroll->widget()) {
        scroll->widget()->installEventFilter(this);
        scroll->viewport()->installEventFilter(this);
    }
}

void WindowLayouts::fitLaunchHeight()
{
    // The launch fields over the arguments: when what the launch panel shows grows (the
    // registers and occupancy after a compile, a problem with the launch), the launch dock
    // grows with it rather than hiding its last lines below a scroll bar. Never past half
    // the window, and never smaller: a height the user gave it stays. Not while a mode's
    // layout comes or goes: a layout restored is restored exactly.
    if (presenting_ || debugging_ || !pendingState_.isEmpty() || d_.launch->isHidden() || d_.arguments->isHidden()
        || window_->tabifiedDockWidgets(d_.launch).contains(d_.arguments))
        return;
    const auto* scroll = qobject_cast<const QScrollArea*>(d_.launch->widget());
    if (!scroll || !scroll->widget())
        return;
    const int missing = scroll->widget()->minimumSizeHint().height() - scroll->viewport()->height();
    const int room = window_->height() / 2 - d_.launch->height();
    const int grow = std::min(missing, room);
    if (grow <= 0) {
        launchRetries_ = 0;
        return;
    }
    window_->resizeDocks({d_.launch, d_.arguments}, {d_.launch->height() + grow, d_.arguments->height() - grow},
                         Qt::Vertical);
    // A resize asked for while the window is still settling may be undone by it: look again.
    if (++launchRetries_ <= 5)
        QTimer::singleShot(100, this, &WindowLayouts::fitLaunchHeight);
}

void WindowLayouts::showResults()
{
    if (!std::exchange(resultsWaiting_, false) || presenting_ || debugging_)
        return;
    // A view the run asked for (the Profile of a profiled first run) stays in front.
    QDockWidget* front = d_.results.front();
    for (QDockWidget* d : d_.results)
        if (!d->isHidden())
            front = d;
    for (QDockWidget* d : d_.results)
        if (!contains(d_.hiddenAtFirst, d))
            d->show();
    front->raise();
    QTimer::singleShot(0, this, [this] {
        if (!presenting_ && !debugging_)
            window_->resizeDocks({d_.results.front()}, {resultsHeight(window_->height())}, Qt::Vertical);
        fitLaunchHeight();
    });
}

void WindowLayouts::makeRoomForImage(int editorSpare)
{
    if (imageRoomMade_)
        return;
    // After showResults' own sizing, which the same run asked for in the same pass.
    QTimer::singleShot(0, this, [this, editorSpare] {
        QDockWidget* results = d_.results.front();
        if (imageRoomMade_ || presenting_ || debugging_ || !results->isVisible())
            return;
        const bool tall = window_->height() >= imageRoomFromHeight;
        if (!tall && editorSpare <= 0)
            return;
        imageRoomMade_ = true;
        const int want = tall ? imageResultsHeight(window_->height())
                              : std::min(imageResultsHeight(window_->height()), results->height() + editorSpare);
        if (results->height() < want)
            window_->resizeDocks({results}, {want}, Qt::Vertical);
    });
}

void WindowLayouts::applyDefaultSizes(bool wideLeft)
{
    if (presenting_ || debugging_)
        return;
    const int w = window_->width(), h = window_->height();
    // The right column is as wide as its fields and the arguments' columns ask, at least
    // a third of a laptop's width; the notes take what is left beside an editor of about
    // 80 columns, the editor keeps the rest.
    int right
        = std::clamp(std::max({wantedWidth(d_.launch), wantedWidth(d_.arguments), int(w * 0.31)}), 0, int(w * 0.42));
    if (w < 1300) {
        // No room for a notes column beside the editor and the arguments: the notes,
        // variables and steps become tabs behind the launch fields.
        if (window_->dockWidgetArea(d_.notes) != window_->dockWidgetArea(d_.launch)) {
            window_->tabifyDockWidget(d_.launch, d_.notes);
            for (QDockWidget* d : d_.left)
                window_->tabifyDockWidget(d_.launch, d);
            d_.launch->raise();
        }
        window_->resizeDocks({d_.launch}, {right}, Qt::Horizontal);
    } else {
        std::vector<QDockWidget*> leftDocks = d_.left;
        leftDocks.push_back(d_.notes);
        const int leftLeast = leftMinimum(leftDocks);
        int left = std::max(std::clamp(int(w * (wideLeft ? 0.24 : 0.17)), 180, 420), leftLeast);
        // Where both columns as wished leave the editor less than two fifths of the window
        // (or than its row above asks), each gives up what it can spare: the right column
        // down to what its fields and the arguments' columns need whole, then the left down
        // to its least.
        const int editor = std::max(int(w * 0.4), window_->centralWidget()->minimumSizeHint().width());
        const int room = w - editor - 3 * window_->style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent);
        const int rightLeast = std::max(neededWidth(d_.launch), neededWidth(d_.arguments));
        if (left + right > room)
            right = std::max(rightLeast, room - left);
        if (left + right > room)
            left = std::max(leftLeast, room - right);
        window_->resizeDocks({d_.notes, d_.launch}, {left, right}, Qt::Horizontal);
    }
    const int launchHeight = wantedHeight(d_.launch) + 24; // its title
    window_->resizeDocks({d_.launch, d_.arguments}, {launchHeight, std::max(200, h - launchHeight)}, Qt::Vertical);
    if (!d_.results.front()->isHidden()) {
        window_->resizeDocks({d_.results.front()}, {resultsHeight(h)}, Qt::Vertical);
        d_.results.front()->raise();
    }
    fitLaunchHeight();
}

void WindowLayouts::setDebugging(bool on)
{
    if (on == debugging_)
        return;
    debugging_ = on;
    if (presenting_) {
        debugState_.clear(); // the debugger's layout of before presentation mode no longer applies
        arrangePresentation();
        return;
    }
    if (on) {
        // The debugger has shown its docks; the layout kept is the one without them.
        std::vector<QDockWidget*> shown;
        for (QDockWidget* d : d_.debugRight)
            if (!d->isHidden())
                shown.push_back(d);
        for (QDockWidget* d : d_.debugBottom)
            if (!d->isHidden())
                shown.push_back(d);
        for (QDockWidget* d : shown)
            d->hide();
        normal_ = window_->saveState();
        for (QDockWidget* d : shown)
            d->show();
        arrangeDebugging();
    } else {
        restoreLater(std::exchange(normal_, {}));
    }
}

void WindowLayouts::arrangeDebugging()
{
    // Lanes has the right column's full height for its 32 rows, the launch and arguments
    // tabbed behind it; Shared memory and Warps replace the run's views at the bottom.
    QDockWidget* lanes = d_.debugRight.front();
    for (QDockWidget* d : d_.results)
        if (!contains(d_.debugBottom, d))
            d->hide();
    for (QDockWidget* d : {d_.launch, d_.arguments})
        window_->tabifyDockWidget(lanes, d);
    for (std::size_t i = 1; i < d_.debugRight.size(); ++i)
        window_->tabifyDockWidget(lanes, d_.debugRight[i]);
    QDockWidget* shared = d_.debugBottom.front();
    if (window_->dockWidgetArea(shared) != Qt::BottomDockWidgetArea)
        window_->addDockWidget(Qt::BottomDockWidgetArea, shared);
    for (std::size_t i = 1; i < d_.debugBottom.size(); ++i)
        window_->tabifyDockWidget(shared, d_.debugBottom[i]);
    lanes->raise();
    shared->raise();
    QTimer::singleShot(0, this, [this, lanes, shared] { // once the docks shown are laid out
        if (!debugging_ || presenting_)
            return;
        const int w = window_->width(), h = window_->height();
        window_->resizeDocks({lanes}, {std::clamp(wantedWidth(lanes), int(w * 0.3), int(w * 0.45))}, Qt::Horizontal);
        window_->resizeDocks({shared}, {int(h * 0.27)}, Qt::Vertical);
    });
}

QDockWidget* WindowLayouts::frontResult() const
{
    // The tab in front is the one of its group that is seen.
    for (QDockWidget* d : d_.results)
        if (!d->isHidden() && !d->visibleRegion().isEmpty() && !contains(d_.notPresented, d))
            return d;
    return d_.results.front();
}

void WindowLayouts::arrangePresentation()
{
    // The editor and one group of tabs beside it: the lanes while debugging, else the
    // result in front, the other results, the launch and arguments behind it.
    QDockWidget* front = nullptr;
    std::vector<QDockWidget*> others;
    if (debugging_) {
        front = d_.debugRight.front();
        others.assign(d_.debugRight.begin() + 1, d_.debugRight.end());
        others.insert(others.end(), d_.debugBottom.begin(), d_.debugBottom.end());
    } else {
        front = frontResult();
        for (QDockWidget* d : d_.results)
            if (d != front && !d->isHidden() && !contains(d_.notPresented, d) && !contains(d_.debugBottom, d))
                others.push_back(d);
        for (QDockWidget* d : {d_.launch, d_.arguments, d_.notes})
            if (!d->isHidden())
                others.push_back(d);
    }
    for (QDockWidget* d : window_->findChildren<QDockWidget*>())
        if (d != front && !contains(others, d))
            d->hide();
    tabOnTheRight(front, others, 0.42);
    capMinimumWidths();
}

void WindowLayouts::capMinimumWidths()
{
    std::vector<QWidget*> widgets = {window_->centralWidget()};
    for (QDockWidget* d : window_->findChildren<QDockWidget*>())
        if (!d->isHidden())
            widgets.push_back(d->widget());
    for (QWidget* w : widgets) {
        const bool known = std::any_of(capped_.begin(), capped_.end(), [w](const auto& c) { return c.first == w; });
        if (!known) {
            capped_.emplace_back(w, w->minimumSize());
            w->setMinimumSize(1, 1); // an explicit minimum wins over the one its contents ask
        }
    }
}

void WindowLayouts::uncapMinimumWidths()
{
    for (auto& [w, size] : capped_)
        if (w)
            w->setMinimumSize(size);
    capped_.clear();
}

void WindowLayouts::tabOnTheRight(QDockWidget* front, const std::vector<QDockWidget*>& others, double share)
{
    window_->addDockWidget(Qt::RightDockWidgetArea, front);
    front->show();
    for (QDockWidget* d : others) {
        window_->tabifyDockWidget(front, d);
        d->show();
    }
    front->raise();
    QTimer::singleShot(0, this, [this, front, share] { // at the window's new size
        if (presenting_ && !front->isHidden())
            window_->resizeDocks({front}, {int(window_->width() * share)}, Qt::Horizontal);
    });
}

void WindowLayouts::setPresenting(bool on)
{
    if (on == presenting_)
        return;
    if (on) {
        geometry_ = window_->saveGeometry();
        windowState_ = window_->windowState();
        rect_ = window_->geometry();
        (debugging_ ? debugState_ : normal_) = window_->saveState();
        presenting_ = true;
        arrangePresentation();
        window_->showFullScreen();
        return;
    }
    presenting_ = false;
    uncapMinimumWidths();
    putBack();
    if (!debugging_) {
        restoreLater(std::exchange(normal_, {}), geometry_);
    } else if (!debugState_.isEmpty()) {
        restoreLater(std::exchange(debugState_, {}), geometry_);
    } else { // the session began in presentation mode: the normal layout, then the debugger's
        window_->restoreState(normal_);
        arrangeDebugging();
    }
}

void WindowLayouts::settle()
{
    // The menu bar shown again and the fonts put back take their room now, not at the
    // next pass of the loop: a state is fitted to the room there is when it is restored.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    window_->layout()->invalidate();
    window_->layout()->activate();
}

void WindowLayouts::putBack()
{
    // Where and how large it was: a platform may give back another place with the state.
    window_->setWindowState(windowState_);
    if (!(windowState_ & (Qt::WindowMaximized | Qt::WindowFullScreen)))
        window_->setGeometry(rect_);
}

QByteArray WindowLayouts::normalState() const { return presenting_ || debugging_ ? normal_ : window_->saveState(); }

QByteArray WindowLayouts::normalGeometry() const { return presenting_ ? geometry_ : window_->saveGeometry(); }

void WindowLayouts::restoreLater(const QByteArray& state, const QByteArray& geometry)
{
    settle();
    window_->restoreState(state);
    // The minimum sizes of the fonts just put back, and a window manager's answer to
    // leaving full screen, come later: the geometry and the same state again then, and
    // at every resize of the next second.
    pendingState_ = state;
    window_->installEventFilter(this);
    QTimer::singleShot(0, this, [this, geometry] {
        if (pendingState_.isEmpty() || presenting_ || debugging_ != debuggingWhenRestored_)
            return;
        if (!geometry.isEmpty() && window_->saveGeometry() != geometry)
            putBack();
        settle();
        window_->restoreState(pendingState_);
    });
    QTimer::singleShot(1000, this, [this] {
        pendingState_.clear();
        window_->removeEventFilter(this);
    });
    debuggingWhenRestored_ = debugging_;
}

bool WindowLayouts::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != window_) {
        if (event->type() == QEvent::LayoutRequest || event->type() == QEvent::Resize)
            QTimer::singleShot(0, this, &WindowLayouts::fitLaunchHeight); // once laid out
        return QObject::eventFilter(watched, event);
    }
    if (watched == window_ && event->type() == QEvent::Resize && !pendingState_.isEmpty() && !presenting_
        && debugging_ == debuggingWhenRestored_)
        window_->restoreState(pendingState_);
    return QObject::eventFilter(watched, event);
}

} // namespace kw
