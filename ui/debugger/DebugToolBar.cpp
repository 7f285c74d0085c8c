#include "debugger/DebugToolBar.hpp"

#include <QAction>
#include <QLabel>
#include <QSpinBox>

namespace kw {

DebugToolBar::DebugToolBar(QWidget* parent)
    : QToolBar(tr("Debug"), parent)
{
    setObjectName("debugToolBar");
    setToolButtonStyle(Qt::ToolButtonTextOnly);
    struct Motion {
        QString text, command, tip;
        QKeySequence key;
    };
    const Motion motions[] = {
        {tr("Continue"), "continue", tr("Run to the next breakpoint or watchpoint hit"), QKeySequence(Qt::Key_F8)},
        {tr("Step"), "step", tr("Run the focused warp to its next source line"), QKeySequence(Qt::Key_F7)},
        {tr("Next"), "next", tr("As Step, over inlined device function calls"), QKeySequence(Qt::Key_F10)},
        {tr("Out"), "finish", tr("Run the focused warp out of the device function it is in"),
         QKeySequence(Qt::SHIFT | Qt::Key_F8)},
        {tr("Instr"), "stepi", tr("Run one PTX instruction of the focused warp"), QKeySequence(Qt::CTRL | Qt::Key_F7)},
        {tr("To barrier"), "barrier", tr("Run the focused block to its next barrier release"),
         QKeySequence(Qt::Key_F6)},
        {tr("Reconverge"), "reconverge", tr("Run the focused warp until its lanes run together again"),
         QKeySequence(Qt::SHIFT | Qt::Key_F6)},
        {tr("◀ Step"), "reverse-step", tr("Back to where the focused warp began its line"),
         QKeySequence(Qt::SHIFT | Qt::Key_F7)},
        {tr("◀ Instr"), "reverse-stepi", tr("Back one PTX instruction of the focused warp"),
         QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F7)},
        {tr("◀ Continue"), "reverse-continue", tr("Back to the last breakpoint or watchpoint hit"),
         QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F8)},
    };
    for (const Motion& m : motions) {
        QAction* a = addAction(m.text);
        a->setData(m.command);
        a->setShortcut(m.key);
        a->setToolTip(QString("%1 (%2)").arg(m.tip, m.key.toString(QKeySequence::NativeText)));
        connect(a, &QAction::triggered, this, [this, c = m.command] { emit commandRequested(c); });
        motions_ << a;
    }
    pause_ = addAction(tr("Pause"));
    pause_->setShortcut(QKeySequence(Qt::Key_Pause));
    pause_->setToolTip(
        tr("Stop the motion under way (Continue, Next, ◀ Step, ◀ Continue...) where the launch is now (%1)")
            .arg(pause_->shortcut().toString(QKeySequence::NativeText)));
    pause_->setEnabled(false);
    connect(pause_, &QAction::triggered, this, &DebugToolBar::pauseRequested);
    stop_ = addAction(tr("Stop"));
    stop_->setToolTip(tr("End the debugger (Ctrl+Shift+F5)"));
    connect(stop_, &QAction::triggered, this, &DebugToolBar::stopRequested);
    addSeparator();

    auto box = [this](const QString& label, const QString& tip) {
        auto* l = new QLabel(label);
        l->setContentsMargins(6, 0, 2, 0);
        addWidget(l);
        auto* b = new QSpinBox;
        b->setToolTip(tip);
        b->setKeyboardTracking(false);
        addWidget(b);
        return b;
    };
    block_ = box(tr("Block"), tr("The focused block (linear, x fastest)"));
    warp_ = box(tr("Warp"), tr("The focused warp of the block"));
    thread_ = box(tr("Thread"), tr("A thread of the block (linear): focuses its warp and lane"));
    connect(block_, &QSpinBox::valueChanged, this, [this](int v) {
        if (!showing_)
            emit commandRequested(QString("block %1").arg(v));
    });
    connect(warp_, &QSpinBox::valueChanged, this, [this](int v) {
        if (!showing_)
            emit commandRequested(QString("warp %1").arg(v));
    });
    connect(thread_, &QSpinBox::valueChanged, this, [this](int v) {
        if (!showing_)
            emit commandRequested(QString("thread %1").arg(v));
    });
    stopLabel_ = new QLabel;
    stopLabel_->setContentsMargins(8, 0, 4, 0);
    addWidget(stopLabel_);
}

QAction* DebugToolBar::action(const QString& command) const
{
    for (QAction* a : motions_)
        if (a->data().toString() == command)
            return a;
    return nullptr;
}

void DebugToolBar::setDebugging(bool on)
{
    for (QAction* a : motions_)
        a->setEnabled(on);
    stop_->setEnabled(on);
    pause_->setEnabled(false);
    block_->setEnabled(on);
    warp_->setEnabled(on);
    thread_->setEnabled(on);
    if (!on)
        stopLabel_->clear();
    setVisible(on);
}

void DebugToolBar::setRunning(bool running) { pause_->setEnabled(running); }

void DebugToolBar::show(const DebugReply& reply)
{
    showing_ = true;
    block_->setRange(0, int(std::max<std::uint64_t>(reply.blocks, 1) - 1));
    block_->setValue(int(reply.focusBlock));
    warp_->setRange(0, std::max(reply.warpsPerBlock, 1) - 1);
    warp_->setValue(reply.focusWarp);
    thread_->setRange(0, std::max(reply.warpsPerBlock, 1) * 32 - 1);
    thread_->setValue(reply.focusWarp * 32 + reply.focusLane);
    showing_ = false;
    QString why = reply.stop.reason;
    if (reply.stop.watchWriter)
        why = tr("watchpoint: written by %1").arg(*reply.stop.watchWriter);
    else if (reply.stop.lane >= 0 && reply.stop.reason == "breakpoint")
        why = tr("breakpoint hit by lane %1").arg(reply.stop.lane);
    else if (!reply.stop.message.isEmpty())
        why += ": " + reply.stop.message;
    QString text = QString("[%1] %2").arg(reply.stop.position).arg(why);
    if (reply.warp && !reply.warp->done && reply.warp->where.line > 0)
        text += tr(" — line %1").arg(reply.warp->where.line);
    stopLabel_->setText(text.left(120));
    stopLabel_->setToolTip(text);
    for (QAction* a : motions_) // once the launch has ended only the backward motions go on
        a->setEnabled(!reply.ended || a->data().toString().startsWith("reverse"));
}

} // namespace kw
